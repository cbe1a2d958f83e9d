/** The two reports end to end: gather the endpoint bodies, decide the content, draw or return it. */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Context } from '../context.js';
import { CatintelError } from '../errors.js';
import type { Caller } from '../caller.js';
import { buildBriefing, type Briefing } from './domain/briefing.js';
import { buildIcs209, type Ics209 } from './domain/ics209.js';
import type { ReportInputs } from './domain/inputs.js';
import { gatherInputs } from './gather.js';
import type { ReportSources } from './sources.js';
import { renderBriefingPdf, renderIcs209Pdf } from './pdf.js';

export interface BriefingResult {
  pdf: Buffer;
  pages: number;
  briefing: Briefing;
  inputs: ReportInputs;
}

export async function briefingPdf(
  ctx: Context,
  id: string,
  caller: Caller,
  sources: ReportSources,
): Promise<BriefingResult> {
  const inputs = await gatherInputs(ctx, id, caller, sources, { portfolioLosses: true });
  const briefing = buildBriefing(inputs);
  const { pdf, pages } = await renderBriefingPdf(briefing, inputs);
  return { pdf, pages, briefing, inputs };
}

export async function ics209Of(ctx: Context, id: string, caller: Caller, sources: ReportSources): Promise<Ics209> {
  return buildIcs209(await gatherInputs(ctx, id, caller, sources));
}

export const ics209Pdf = (form: Ics209) => renderIcs209Pdf(form);

/** Writes a report file whole or not at all (a temporary beside it, then a rename); the summary the CLI prints. */
export function writeReport(file: string, bytes: Buffer): { path: string; bytes: number; sha256: string } {
  const target = path.resolve(file);
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    throw new CatintelError(
      'invalid_parameter',
      `--out "${file}" is a directory; name a file, e.g. ${path.join(file, 'briefing.pdf')}`,
      { errors: [{ field: 'out', message: 'is a directory' }] },
    );
  }
  const dir = path.dirname(target);
  if (!fs.existsSync(dir)) {
    throw new CatintelError(
      'invalid_parameter',
      `--out "${file}": the directory ${dir} does not exist; create it first`,
      { errors: [{ field: 'out', message: 'directory does not exist' }] },
    );
  }
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, bytes);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw new CatintelError(
      'invalid_parameter',
      `--out "${file}" cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { errors: [{ field: 'out', message: 'cannot be written' }] },
    );
  }
  // Named as the caller gave it, as every command names its files (the server beside it answers the same).
  return { path: file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
