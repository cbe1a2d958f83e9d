/**
 * `catintel model keys --model DIR --oed-location L.csv --out keys.csv`: a model package's keys lookup,
 * hurricane or earthquake, told by the package's files (areaperil from the location's coordinates on the
 * model's grid, vulnerability from its OED codes; for storm surge also from its ground and first-floor
 * elevation), writing keys.csv and, beside it, keys-errors.csv with each location and peril the model
 * cannot key and why. CLI only and storeless.
 */
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { existingFile } from './oasis-files.js';
import { required } from './params.js';
import { defineHandler } from './types.js';

export interface ModelKeysInput {
  model: string;
  location: string;
  out: string;
}

export interface ModelKeysBody {
  keys: string;
  errors: string;
  keyRows: number;
  errorRows: number;
  /** vulnerability_ids the keys use that the package does not hold (rebuild it with --oed-location). */
  missingVulnerabilities: number[];
}

export const modelKeys = defineHandler<ModelKeysInput, ModelKeysBody>({
  name: 'model.keys',
  summary:
    "A catintel model package's keys lookup (hurricane or earthquake) for an OED location file (keys.csv and keys-errors.csv)",
  storeless: true,
  cli: {
    command: ['model', 'keys'],
    options: [
      {
        flags: '--model <dir>',
        description: 'the model package (`catintel model build hurricane|earthquake --out DIR`)',
      },
      {
        flags: '--oed-location <file>',
        description: 'the OED location file (Latitude, Longitude, OccupancyCode, ConstructionCode, …)',
      },
      {
        flags: '--out <file>',
        description: 'the keys file to write; keys-errors.csv goes beside it (<name>-errors.csv)',
      },
    ],
    examples: ['catintel model keys --model models/hurricane --oed-location location.csv --out keys.csv'],
    paths: ['model', 'oed_location', 'out'],
  },
  parse(raw) {
    const model = path.resolve(required(raw, 'model'));
    const location = existingFile(raw, 'oed_location', 'an OED location CSV', true)!;
    const out = required(raw, 'out');
    if (out.includes('\0')) throw new CatintelError('invalid_parameter', '--out: a file name cannot hold a NUL byte');
    return { model, location, out: path.resolve(out) };
  },
  async run(_ctx, input) {
    const { packageKeysLookup, packageModelOf } = await import('../models/package-kind.js');
    const kind = packageModelOf(input.model);
    if (!kind)
      throw new CatintelError(
        'invalid_parameter',
        `--model ${input.model} is not a catintel model package; build one with \`catintel model build hurricane|earthquake --out DIR\``,
        { errors: [{ field: 'model', message: 'not a model package' }] },
      );
    const { bookKeys, missingVulnerabilities, writeBookKeys } = await packageKeysLookup(kind);
    const { keys, errors } = bookKeys(input.model, input.location);
    const files = writeBookKeys(input.out, keys, errors);
    const missing = missingVulnerabilities(input.model, keys);
    const notes = errors.length
      ? [`${new Set(errors.map((e) => e.locId)).size} locations not placed: see ${files.errors}`]
      : [];
    if (missing.length)
      notes.push(
        `the package lacks vulnerabilities ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}: rebuild it with \`catintel model build ${kind} --oed-location ${input.location}\``,
      );
    return {
      body: {
        keys: files.keys,
        errors: files.errors,
        keyRows: keys.length,
        errorRows: errors.length,
        missingVulnerabilities: missing,
      },
      notes,
    };
  },
});
