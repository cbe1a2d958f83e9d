/**
 * The ICS-209 incident status summary generated from live data (issue 14, docs/reports.md): GET
 * /events/{id}/ics209 (agency) answers the form as JSON, or as a PDF with format=pdf; `catintel ics209 ID
 * [--format json|pdf] [--out FILE]` prints the JSON or writes either to a file (CLI only, so no HTTP caller
 * names a path on the server). Unofficial and automated; never an invented count (domain/ics209.ts).
 */
import { CatintelError } from '../errors.js';
import { eventIdParam } from './event-lookup.js';
import { str } from './params.js';
import { defineHandler, type HandlerResult } from './types.js';

const FORMATS = ['json', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

function format(raw: Record<string, unknown>): Format {
  const f = str(raw, 'format') ?? 'json';
  if (!(FORMATS as readonly string[]).includes(f)) {
    throw new CatintelError('invalid_parameter', `format: "${f.slice(0, 40)}" is not one of json, pdf`, {
      errors: [{ field: 'format', message: 'is not one of json, pdf' }],
    });
  }
  return f as Format;
}

export const eventsIcs209 = defineHandler({
  name: 'events.ics209',
  summary: 'ICS-209 incident status summary generated from live data (unofficial)',
  http: { method: 'GET', path: '/events/{id}/ics209', access: 'agency' },
  parse: (raw) => ({ id: eventIdParam(raw), format: format(raw) }),
  async run(ctx, { id, format }, caller): Promise<HandlerResult> {
    // The report code (PDF, charts, maps) loads when a report is made, not with the CLI's every start.
    const [{ ics209Of, ics209Pdf }, { reportSources }] = await Promise.all([
      import('../reports/reports.js'),
      import('./report-sources.js'),
    ]);
    const form = await ics209Of(ctx, id, caller, reportSources(ctx, caller));
    if (format === 'json') return { body: form };
    const { pdf } = await ics209Pdf(form);
    return {
      body: pdf,
      mediaType: 'application/pdf',
      headers: { 'content-disposition': `inline; filename="ics209-${form.event_id}.pdf"` },
    };
  },
});

export const ics209Command = defineHandler({
  name: 'ics209',
  summary: 'The ICS-209 of an event from live data: JSON on stdout, or JSON/PDF to a file',
  cli: {
    command: ['ics209'],
    args: ['id'],
    options: [
      { flags: '--format <format>', description: 'json (default) or pdf; pdf needs --out' },
      { flags: '--out <file>', description: 'write the form to this file instead of printing it' },
    ],
    paths: ['out'],
    examples: ['catintel ics209 al092022 --json', 'catintel ics209 al092022 --format pdf --out ian-209.pdf'],
  },
  parse: (raw) => {
    const f = format(raw);
    const out = str(raw, 'out');
    if (f === 'pdf' && !out)
      throw new CatintelError(
        'invalid_parameter',
        '--format pdf needs --out FILE.pdf (a PDF is not printed to the terminal)',
        { errors: [{ field: 'out', message: 'required with --format pdf' }] },
      );
    return { id: eventIdParam(raw), format: f, out };
  },
  async run(ctx, { id, format, out }, caller) {
    const [{ ics209Of, ics209Pdf, writeReport }, { reportSources }] = await Promise.all([
      import('../reports/reports.js'),
      import('./report-sources.js'),
    ]);
    const form = await ics209Of(ctx, id, caller, reportSources(ctx, caller));
    if (!out) return { body: form as unknown as Record<string, unknown> };
    const bytes = format === 'pdf' ? (await ics209Pdf(form)).pdf : Buffer.from(JSON.stringify(form, null, 2) + '\n');
    return {
      body: {
        event_id: form.event_id,
        title: form.event_title,
        format,
        ...writeReport(out, bytes),
        generated_at: form.generated_at,
        not_known: form.not_known,
      },
    };
  },
});
