/**
 * The CLI loads the DuckDB client once, with require() (src/store/duckdb.ts): imported from ESM, Node
 * scans each of the package's forty-odd CommonJS files for its named exports on every start, about 0.15 s
 * of CPU a command (`db info`: 0.47 -> 0.33 s). A value import of the package anywhere else in src/
 * would bring the scan back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

function sourceFiles(dir: string): string[] {
  return (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[])
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
}

describe('the DuckDB client', () => {
  it('is loaded with require() in src/store/duckdb.ts only: the rest of src/ imports its types alone', () => {
    const valueImports = sourceFiles('src').filter((f) =>
      /^import\s+(?!type\s)[^;]*?from\s+'@duckdb\/node-api'/m.test(fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')),
    );
    expect(valueImports).toEqual([]);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'src/store/duckdb.ts'), 'utf8')).toMatch(
      /createRequire\(import\.meta\.url\)\('@duckdb\/node-api'\)/,
    );
  });
});
