/**
 * Compiles the WebAssembly text sources of the loss kernel (src/loss/domain/*.wat) with wabt into
 * TypeScript modules holding the binary (philox.wat -> philox-wasm.ts), so that the build needs no
 * toolchain and the runtime no file beside the JavaScript. `npm run build:wasm` after editing a .wat;
 * src/loss/domain/philox-wasm.test.ts fails when a generated module no longer matches its source.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';


/** The generated module's text for a .wat source. */
export async function wasmModuleSource(watFile: string): Promise<string> {
  const wabt = await wabtInit();
  const parsed = wabt.parseWat(path.basename(watFile), fs.readFileSync(watFile, 'utf8'));
  try {
    parsed.validate();
    const { buffer } = parsed.toBinary({});
    const name = path.basename(watFile);
    return [
      `// Generated from ${name} by scripts/build-wasm.ts (npm run build:wasm): do not edit.`,
      `export const WASM_BASE64 = '${Buffer.from(buffer).toString('base64')}';`,
      '',
    ].join('\n');
  } finally {
    parsed.destroy();
  }
}

export function generatedPath(watFile: string): string {
  return watFile.replace(/\.wat$/, '-wasm.ts');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // npm run build:wasm runs from the project root.
  const dir = path.resolve(process.argv[2] ?? 'src/loss/domain');
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.wat'))) {
    const wat = path.join(dir, f);
    fs.writeFileSync(generatedPath(wat), await wasmModuleSource(wat));
    console.log(`${f} -> ${path.basename(generatedPath(wat))}`);
  }
}
