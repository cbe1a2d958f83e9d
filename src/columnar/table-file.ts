/**
 * `catintel portfolio exposure ID --format arrow --out FILE`: the answer's table (src/columnar/answer-table.ts)
 * written as an Arrow IPC file (what pandas.read_feather and polars.read_ipc take) instead of printed. The
 * file appears whole under its name or not at all: it is written under a temporary name beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { invalidParameter } from '../errors.js';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { answerTable } from './answer-table.js';

export const TABLE_FILE_FORMATS = ['json', 'arrow'] as const;

export interface TableFileRequest {
  format: 'arrow';
  out: string;
}

/** The file the command should write, or undefined for the JSON/text answer; refuses a bad pair before any work. */
export function tableFileRequest(raw: Record<string, unknown>): TableFileRequest | undefined {
  const format = raw.format === undefined ? 'json' : String(raw.format);
  if (!(TABLE_FILE_FORMATS as readonly string[]).includes(format))
    throw invalidParameter('format', `"${format}" is not one of ${TABLE_FILE_FORMATS.join(', ')}`);
  if (format === 'json') return undefined;
  if (typeof raw.out !== 'string' || raw.out === '')
    throw invalidParameter('out', `--format ${format} writes a file: give it with --out FILE`);
  return { format: 'arrow', out: raw.out };
}

export async function writeTableFile(
  handler: string,
  body: unknown,
  req: TableFileRequest,
): Promise<{ file: string; format: string; rows: number }> {
  const table = answerTable(handler, body);
  if (!table) throw new Error(`${handler} has no Arrow form`);
  const file = path.resolve(req.out);
  const temp = tempPathOf(path.dirname(file), path.basename(file), runToken());
  try {
    await fs.promises.writeFile(temp, tableToIPC(table, 'file'));
    await fs.promises.rename(temp, file);
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
  return { file, format: req.format, rows: table.numRows };
}
