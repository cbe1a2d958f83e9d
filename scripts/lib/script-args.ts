/**
 * The command-line options the validation scripts share: `--name value` pairs, the shared data folder
 * (`--from`, beside the project by default) and a model-packages folder they cannot run without. A bad
 * value ends the script with one line naming it and exit 2, as the CLI does.
 */
import path from 'node:path';
import { packageRoot } from '../../src/lib/package-root.js';

/** The value after `name` on the command line, if the option is given. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function refuse(message: string): never {
  process.stderr.write(message + '\n');
  process.exit(2);
}

/** A whole-number option at least `min` (1 unless given), or `fallback` when absent. */
export function wholeNumber(name: string, fallback: number, min = 1): number {
  const raw = arg(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    refuse(
      min === 1
        ? `${name} must be a positive whole number, got "${raw}"`
        : `${name} must be a whole number, ${min} or more, got "${raw}"`,
    );
  return n;
}

/** `--from DIR`, else the shared data beside the project. */
export function sharedDataDir(): string {
  return path.resolve(arg('--from') ?? path.join(packageRoot(), '..', 'shared', 'data'));
}

/** `--models DIR`, required: the folder holding the `folder/` package that `buildCommand` makes. */
export function requiredModelsDir(folder: string, buildCommand: string): string {
  const dir = arg('--models');
  if (!dir)
    refuse(
      `--models DIR is required: the folder holding the ${folder} package (${folder}/), built with \`${buildCommand} --out DIR/${folder}\``,
    );
  return path.resolve(dir);
}
