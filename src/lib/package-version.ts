/** The version in the installed package's package.json (`catintel --version`, /health). */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
