/**
 * `catintel portfolio exposure ID --format arrow --out FILE`: the answer's table (src/columnar/answer-table.ts)
 * written as an Arrow IPC file (what pandas.read_feather and polars.read_ipc take) instead of printed. The
 * file appears whole under its name or not at all: it is written under a temporary name beside it.
 * Which file, if any, a command asked for is file-request.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { answerTable } from './answer-table.js';
import type { TableFileRequest } from './file-request.js';

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
