/**
 * Compiles the loss kernel's AssemblyScript (src/loss/assembly, entry index.ts) with the AssemblyScript
 * compiler into a TypeScript module holding the binary (src/loss/wasm/kernel-wasm.ts), so that the
 * build needs no toolchain and the runtime no file beside the JavaScript. `npm run build:wasm` after
 * editing the sources; src/loss/wasm/kernel-module.test.ts fails when the generated module no longer
 * matches them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

/** The project root: the nearest folder above this file with a package.json (this file runs compiled, from dist/, and from source in the tests). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}
const ROOT = projectRoot();
/** The sources' folder, from the project root, and the generated module. */
export const ASSEMBLY_DIR = 'src/loss/assembly';
export const GENERATED = 'src/loss/wasm/kernel-wasm.ts';

/** The generated module's text: the sources compiled. */
export async function wasmModuleSource(root = ROOT): Promise<string> {
  let binary: Uint8Array | undefined;
  const errors: string[] = [];
  // No runtime (nothing is allocated: the host lays out the memory), no assertions, no abort import.
  // Files are named relative to the sources' folder, so no path of this machine goes into the binary.
  const { error } = await asc.main(
    ['index.ts', '--outFile', 'kernel.wasm', '-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort='],
    {
      readFile: (name, baseDir) => {
        const file = path.join(root, ASSEMBLY_DIR, baseDir, name);
        return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      },
      writeFile: (name, contents) => {
        if (name.endsWith('.wasm')) binary = contents as Uint8Array;
      },
      listFiles: () => [],
      stderr: { write: (s: string | Uint8Array) => (errors.push(String(s)), true) } as never,
      stdout: { write: () => true } as never,
    },
  );
  if (error || !binary) throw new Error(`asc: ${error?.message ?? 'no binary'}\n${errors.join('')}`);
  return [
    `// Generated from ../assembly/*.ts by scripts/build-wasm.ts (npm run build:wasm): do not edit.`,
    // Laid out as Prettier lays it out, so that the formatter leaves the generated module as it is written.
    `export const WASM_BASE64 =`,
    `  '${Buffer.from(binary).toString('base64')}';`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  fs.writeFileSync(path.join(ROOT, GENERATED), await wasmModuleSource());
  console.log(`${ASSEMBLY_DIR} -> ${GENERATED}`);
}
