/**
 * The PDF leadership briefing of an event (issue 14, docs/reports.md): GET /events/{id}/briefing answers
 * application/pdf; `catintel briefing ID --out FILE.pdf` writes the same bytes to a file (a CLI-only handler,
 * so no HTTP caller can name a path on the server) and prints what it wrote.
 */
import { eventIdParam } from './event-lookup.js';
import { required } from './params.js';
import { defineHandler, type HandlerResult } from './types.js';

export const eventsBriefing = defineHandler({
  name: 'events.briefing',
  summary: 'PDF leadership briefing of an event: key figures, map, exposure, prediction, timeline, sources',
  http: { method: 'GET', path: '/events/{id}/briefing', access: 'analyst' },
  parse: (raw) => ({ id: eventIdParam(raw) }),
  async run(ctx, { id }, caller): Promise<HandlerResult> {
    // The report code (PDF, charts, maps) loads when a report is made, not with the CLI's every start.
    const [{ briefingPdf }, { reportSources }] = await Promise.all([
      import('../reports/reports.js'),
      import('./report-sources.js'),
    ]);
    const r = await briefingPdf(ctx, id, caller, reportSources(ctx, caller));
    const name = r.inputs.event.props.slug.replace(/[^a-z0-9-]/gi, '').slice(0, 80);
    return {
      body: r.pdf,
      mediaType: 'application/pdf',
      headers: { 'content-disposition': `inline; filename="briefing-${name}.pdf"` },
    };
  },
});

export const briefingCommand = defineHandler({
  name: 'briefing',
  summary: 'Write the PDF leadership briefing of an event to a file',
  cli: {
    command: ['briefing'],
    args: ['id'],
    options: [{ flags: '--out <file>', description: 'the PDF file to write (required)' }],
    paths: ['out'],
    examples: [
      'catintel briefing al092022 --out ian.pdf',
      'catintel --as-of 2022-09-29T03:32:09Z briefing <id> --out briefing.pdf --json',
    ],
  },
  parse: (raw) => ({ id: eventIdParam(raw), out: required(raw, 'out') }),
  async run(ctx, { id, out }, caller) {
    const [{ briefingPdf, writeReport }, { reportSources }] = await Promise.all([
      import('../reports/reports.js'),
      import('./report-sources.js'),
    ]);
    const r = await briefingPdf(ctx, id, caller, reportSources(ctx, caller));
    const written = writeReport(out, r.pdf);
    const e = r.inputs.event.props;
    return {
      body: {
        event_id: e.id,
        title: e.title,
        ...written,
        pages: r.pages,
        generated_at: r.inputs.now,
        sections: r.briefing.sections.map((s) => ({
          heading: s.heading,
          available: !s.blocks.every((b) => b.kind === 'unavailable'),
        })),
      },
    };
  },
});
