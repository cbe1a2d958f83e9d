/**
 * The PDF edge: draws a Briefing (domain/briefing.ts), its map (domain/map.ts) and chart (domain/chart.ts),
 * or an ICS-209 (domain/ics209.ts), with pdfkit's vector API and its standard Helvetica (nothing embedded).
 * Deterministic: the creation and modification dates are the report's clock, and pdfkit derives the
 * document ID from that info dictionary, so the same inputs give the same bytes.
 */
import { layoutChart, type Series } from './domain/chart.js';
import { layoutMap, ringColour, ringDash, type Frame, type MapDrawing } from './domain/map.js';
import { fmtTime, pdfText } from './domain/text.js';
import type { Block, Briefing, Table } from './domain/briefing.js';
import type { Ics209 } from './domain/ics209.js';
import type { ReportInputs } from './domain/inputs.js';
import { atlas } from './atlas.js';

const PAGE = { w: 612, h: 792 }; // US Letter, points
const M = 40;
const CONTENT_W = PAGE.w - 2 * M;
const FOOTER_Y = PAGE.h - 30;
const BOTTOM = PAGE.h - 52;
const INK = '#000000';
const GREY = '#555555';

type Doc = PDFKit.PDFDocument;

/** pdfkit loads on the first report (a quarter of a second), not with every CLI command. */
async function newDoc(title: string, subject: string, now: string): Promise<Doc> {
  const { default: PDFDocument } = await import('pdfkit');
  const at = new Date(now);
  return new PDFDocument({
    size: 'LETTER',
    margins: { top: M, bottom: M, left: M, right: M },
    bufferPages: true,
    compress: true,
    info: {
      Title: pdfText(title),
      Subject: subject,
      Author: 'catintel',
      Creator: 'catintel',
      Producer: 'catintel (pdfkit)',
      CreationDate: at,
      ModDate: at,
    },
  });
}

function finish(doc: Doc, footer: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // text below the bottom margin would open a new page
    doc
      .moveTo(M, FOOTER_Y - 4)
      .lineTo(PAGE.w - M, FOOTER_Y - 4)
      .lineWidth(0.5)
      .strokeColor(GREY)
      .stroke();
    doc
      .font('Helvetica')
      .fontSize(6.5)
      .fillColor(INK)
      .text(pdfText(footer), M, FOOTER_Y, { width: CONTENT_W - 60, lineBreak: true });
    doc.text(`page ${i + 1} of ${range.count}`, PAGE.w - M - 60, FOOTER_Y, {
      width: 60,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

function ensureSpace(doc: Doc, need: number): void {
  if (doc.y + need > BOTTOM) {
    doc.addPage();
    doc.y = M;
  }
}

/** A heading is kept with the start of what follows it (`need` points). */
function heading(doc: Doc, text: string, need = 40): void {
  ensureSpace(doc, need);
  doc.moveDown(0.6);
  doc.font('Helvetica-Bold').fontSize(11.5).fillColor(INK).text(pdfText(text), M, doc.y, { width: CONTENT_W });
  doc.moveDown(0.25);
}

function paragraph(doc: Doc, text: string, o: { size?: number; colour?: string; bold?: boolean } = {}): void {
  doc
    .font(o.bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(o.size ?? 8.5)
    .fillColor(o.colour ?? INK);
  const h = doc.heightOfString(pdfText(text), { width: CONTENT_W });
  ensureSpace(doc, Math.min(h, 200));
  doc.text(pdfText(text), M, doc.y, { width: CONTENT_W });
}

function table(doc: Doc, t: Table): void {
  const n = t.columns.length;
  if (!n) return;
  // Column widths by content length, at least 8 % each.
  const lens = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const total = lens.reduce((a, b) => a + b, 0) || 1;
  const widths = t.widths ?? lens.map((l) => Math.max(0.08, l / total));
  const scale = CONTENT_W / widths.reduce((a, b) => a + b, 0);
  const w = widths.map((x) => x * scale);
  const rowHeight = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(7.5);
    return Math.max(...cells.map((c, i) => doc.heightOfString(pdfText(c || ' '), { width: w[i] - 6 }))) + 5;
  };
  const drawRow = (cells: string[], bold: boolean) => {
    const h = rowHeight(cells, bold);
    ensureSpace(doc, h);
    const y = doc.y;
    if (bold) doc.rect(M, y, CONTENT_W, h).fill('#e0e0e0');
    let x = M;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(7.5)
      .fillColor(INK);
    cells.forEach((c, i) => {
      doc.text(pdfText(c ?? ''), x + 3, y + 2.5, { width: w[i] - 6 });
      x += w[i];
    });
    doc
      .moveTo(M, y + h)
      .lineTo(M + CONTENT_W, y + h)
      .lineWidth(0.3)
      .strokeColor('#999999')
      .stroke();
    doc.y = y + h;
  };
  drawRow(t.columns, true);
  for (const r of t.rows) drawRow(r, false);
  doc.x = M;
}

function chart(doc: Doc, s: Series): void {
  const height = 170;
  ensureSpace(doc, height + 10);
  const frame: Frame = { x: M, y: doc.y + 4, w: CONTENT_W, h: height };
  const c = layoutChart(s, frame);
  doc.save();
  doc.lineWidth(0.3).strokeColor('#bbbbbb');
  for (const t of c.yTicks)
    doc
      .moveTo(c.frame.x, t.y)
      .lineTo(c.frame.x + c.frame.w, t.y)
      .stroke();
  doc.restore();
  doc
    .lineWidth(0.8)
    .strokeColor(INK)
    .moveTo(c.frame.x, c.frame.y)
    .lineTo(c.frame.x, c.frame.y + c.frame.h)
    .lineTo(c.frame.x + c.frame.w, c.frame.y + c.frame.h)
    .stroke();
  doc.font('Helvetica').fontSize(7).fillColor(INK);
  for (const t of c.yTicks) doc.text(t.label, c.frame.x - 40, t.y - 3, { width: 36, align: 'right', lineBreak: false });
  for (const t of c.xTicks)
    doc.text(t.label, t.x - 30, c.frame.y + c.frame.h + 4, { width: 60, align: 'center', lineBreak: false });
  doc.save();
  doc.rotate(-90, { origin: [frame.x + 6, c.frame.y + c.frame.h / 2] });
  doc.text(pdfText(c.yLabel), frame.x + 6 - 80, c.frame.y + c.frame.h / 2 - 3, {
    width: 160,
    align: 'center',
    lineBreak: false,
  });
  doc.restore();
  if (c.line.length > 1) {
    doc.moveTo(c.line[0][0], c.line[0][1]);
    for (const [x, y] of c.line.slice(1)) doc.lineTo(x, y);
    doc.lineWidth(1.4).strokeColor(INK).stroke();
  }
  for (const [x, y] of c.line) doc.circle(x, y, 1.8).fill(INK);
  doc.y = frame.y + frame.h + 4;
  doc.x = M;
}

function block(doc: Doc, b: Block): void {
  if (b.kind === 'paragraph') paragraph(doc, b.text);
  else if (b.kind === 'unavailable') paragraph(doc, b.text, { colour: GREY });
  else if (b.kind === 'table') table(doc, b.table);
  else chart(doc, b.series);
}

export function drawMap(doc: Doc, m: MapDrawing): void {
  const f = m.frame;
  doc.save();
  doc.rect(f.x, f.y, f.w, f.h).clip();
  doc.rect(f.x, f.y, f.w, f.h).fill('#ffffff');
  for (const p of m.paths.filter((x) => x.kind === 'graticule'))
    doc.path(p.d).lineWidth(0.4).strokeColor('#cccccc').stroke();
  for (const p of m.paths.filter((x) => x.kind === 'state')) doc.path(p.d).fillColor('#e9e9e9').fill('even-odd');
  for (const p of m.paths.filter((x) => x.kind === 'county'))
    doc.path(p.d).lineWidth(0.3).strokeColor('#b0b0b0').stroke();
  for (const p of m.paths.filter((x) => x.kind === 'state'))
    doc.path(p.d).lineWidth(0.9).strokeColor('#404040').stroke();
  for (const p of m.paths.filter((x) => x.kind === 'ring')) {
    const colour = ringColour(p.ring!, m.rings);
    doc.save();
    doc.path(p.d).fillColor(colour).fillOpacity(0.3).fill('even-odd');
    doc.restore();
    doc.save();
    const dash = ringDash(p.ring!);
    if (dash) doc.dash(dash as unknown as number, {});
    doc.path(p.d).lineWidth(1.6).strokeColor(colour).stroke();
    doc.restore();
  }
  for (const p of m.paths.filter((x) => x.kind === 'track')) doc.path(p.d).lineWidth(1.2).strokeColor(INK).stroke();
  for (const p of m.points.filter((x) => x.kind === 'fix')) doc.circle(p.x, p.y, 1.7).fill(INK);
  for (const p of m.points.filter((x) => x.kind === 'hospital')) hospitalSymbol(doc, p.x, p.y);
  for (const p of m.points.filter((x) => x.kind === 'event')) {
    doc.circle(p.x, p.y, 5).lineWidth(1.5).fillAndStroke(INK, '#ffffff');
    doc.circle(p.x, p.y, 8).lineWidth(1).strokeColor(INK).stroke();
  }
  // Scale bar: four alternating segments, with a white backing for legibility over outlines.
  const sb = m.scaleBar;
  doc
    .rect(sb.x - 4, sb.y - 12, sb.lengthPt + 8, 22)
    .fillColor('#ffffff')
    .fillOpacity(0.85)
    .fill();
  doc.fillOpacity(1);
  for (let i = 0; i < 4; i++) {
    doc
      .rect(sb.x + (i * sb.lengthPt) / 4, sb.y, sb.lengthPt / 4, 4)
      .lineWidth(0.6)
      .fillAndStroke(i % 2 ? '#ffffff' : INK, INK);
  }
  doc
    .font('Helvetica')
    .fontSize(7)
    .fillColor(INK)
    .text(sb.label, sb.x, sb.y - 10, { lineBreak: false });
  // North arrow: Mercator's north is straight up everywhere on the map.
  const na = m.northArrow;
  doc.polygon([na.x, na.y], [na.x - 6, na.y + na.size], [na.x, na.y + na.size - 6]).fill(INK);
  doc
    .polygon([na.x, na.y], [na.x + 6, na.y + na.size], [na.x, na.y + na.size - 6])
    .lineWidth(0.8)
    .fillAndStroke('#ffffff', INK);
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(INK)
    .text('N', na.x - 4, na.y + na.size + 1, { width: 8, align: 'center', lineBreak: false });
  doc.restore();
  doc.rect(f.x, f.y, f.w, f.h).lineWidth(0.8).strokeColor(INK).stroke();
}

/** A hospital: a small white square with a black cross, distinct from the event's dot in grey-scale. */
function hospitalSymbol(doc: Doc, x: number, y: number): void {
  doc
    .rect(x - 2.3, y - 2.3, 4.6, 4.6)
    .lineWidth(0.5)
    .fillAndStroke('#ffffff', INK);
  doc
    .moveTo(x - 1.5, y)
    .lineTo(x + 1.5, y)
    .moveTo(x, y - 1.5)
    .lineTo(x, y + 1.5)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();
}

function legend(doc: Doc, inputs: ReportInputs, m: MapDrawing, y: number): number {
  let x = M;
  const item = (draw: (x: number, y: number) => void, label: string) => {
    const text = pdfText(label);
    doc.font('Helvetica').fontSize(7);
    const w = doc.widthOfString(text) + 24;
    if (x + w > M + CONTENT_W) {
      x = M;
      y += 12;
    }
    draw(x, y);
    doc
      .fillColor(INK)
      .fillOpacity(1)
      .text(text, x + 18, y - 3.5, { lineBreak: false });
    x += w + 6;
  };
  inputs.rings.forEach((r, i) =>
    item((x0, y0) => {
      doc.save();
      doc
        .rect(x0, y0 - 4, 14, 8)
        .fillColor(ringColour(i, inputs.rings.length))
        .fillOpacity(0.3)
        .fill();
      doc.restore();
      doc.save();
      const dash = ringDash(i);
      if (dash) doc.dash(dash as unknown as number, {});
      doc
        .rect(x0, y0 - 4, 14, 8)
        .lineWidth(1.4)
        .strokeColor(ringColour(i, inputs.rings.length))
        .stroke();
      doc.restore();
    }, r.props.label),
  );
  item((x0, y0) => {
    doc
      .circle(x0 + 7, y0, 3.5)
      .lineWidth(1)
      .fillAndStroke(INK, '#ffffff');
  }, 'event');
  if (m.paths.some((p) => p.kind === 'track'))
    item(
      (x0, y0) =>
        doc
          .moveTo(x0, y0)
          .lineTo(x0 + 14, y0)
          .lineWidth(1.2)
          .strokeColor(INK)
          .stroke(),
      'track (fixes as dots)',
    );
  if (inputs.hospitals.list.length)
    item((x0, y0) => hospitalSymbol(doc, x0 + 7, y0), `hospital (${m.hospitalsShown} shown)`);
  if (m.states) {
    item(
      (x0, y0) =>
        doc
          .moveTo(x0, y0)
          .lineTo(x0 + 14, y0)
          .lineWidth(0.9)
          .strokeColor('#404040')
          .stroke(),
      'state border',
    );
    item(
      (x0, y0) =>
        doc
          .moveTo(x0, y0)
          .lineTo(x0 + 14, y0)
          .lineWidth(0.3)
          .strokeColor('#b0b0b0')
          .stroke(),
      'county line',
    );
  }
  y += 12;
  const notes: string[] = [];
  if (!m.states)
    notes.push(
      'Outside the United States: no county or state outlines (us-atlas covers the US); graticule lines at whole degrees.',
    );
  if (!inputs.hospitals.list.length) notes.push(`Hospitals: ${inputs.hospitals.source}.`);
  notes.push(
    `Mercator projection; scale bar true at the map centre. Outlines: US Census Bureau via us-atlas. Hospitals: ${inputs.hospitals.fromEndpoint ? 'GET /infrastructure' : 'HIFLD'}.`,
  );
  doc
    .font('Helvetica')
    .fontSize(6.5)
    .fillColor(GREY)
    .text(pdfText(notes.join(' ')), M, y, { width: CONTENT_W });
  return doc.y;
}

export interface RenderedBriefing {
  pdf: Buffer;
  pages: number;
  map: MapDrawing;
}

export async function renderBriefingPdf(b: Briefing, inputs: ReportInputs): Promise<RenderedBriefing> {
  const doc = await newDoc(b.title, 'Leadership briefing (catintel)', b.asOf);
  // Page 1: who, what, when, the key numbers, the map.
  doc
    .font('Helvetica-Bold')
    .fontSize(7.5)
    .fillColor(GREY)
    .text('CATINTEL LEADERSHIP BRIEFING - UNOFFICIAL - FOR SITUATIONAL AWARENESS ONLY', M, M, {
      width: CONTENT_W,
      characterSpacing: 0.4,
    });
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(17).fillColor(INK).text(pdfText(b.title), { width: CONTENT_W });
  doc.moveDown(0.2);
  doc.font('Helvetica').fontSize(9).fillColor(INK).text(pdfText(b.statusLine), { width: CONTENT_W });
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(GREY)
    .text(`As of ${fmtTime(b.asOf)}. Every figure names its source; see the last page.`, { width: CONTENT_W });
  doc.moveDown(0.5);
  const kfY = doc.y;
  const n = b.keyFigures.length;
  const gap = 6;
  const boxW = (CONTENT_W - gap * (n - 1)) / n;
  // Every figure is shown whole: the value shrinks to fit its box's width, captions and sources wrap, and
  // the boxes grow to the tallest (five boxes with a TIV figure are narrow; nothing is cut with an ellipsis).
  const inner = boxW - 12;
  const figures = b.keyFigures.map((k) => {
    const value = pdfText(k.value);
    let size = 15;
    doc.font('Helvetica-Bold');
    while (size > 8 && doc.fontSize(size).widthOfString(value) > inner) size -= 0.5;
    const caption = pdfText(k.caption);
    const source = pdfText(k.source);
    const captionH = doc.font('Helvetica').fontSize(7).heightOfString(caption, { width: inner });
    const sourceH = doc.font('Helvetica').fontSize(5.5).heightOfString(source, { width: inner });
    return { value, size, caption, source, captionH, sourceH };
  });
  const boxH = Math.max(64, ...figures.map((f) => 26 + f.captionH + 3 + f.sourceH + 5));
  figures.forEach((f, i) => {
    const x = M + i * (boxW + gap);
    doc.rect(x, kfY, boxW, boxH).lineWidth(0.8).strokeColor(INK).stroke();
    doc
      .font('Helvetica-Bold')
      .fontSize(f.size)
      .fillColor(INK)
      .text(f.value, x + 6, kfY + 6 + (15 - f.size) / 2, { width: inner, lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(INK)
      .text(f.caption, x + 6, kfY + 26, { width: inner });
    doc
      .font('Helvetica')
      .fontSize(5.5)
      .fillColor(GREY)
      .text(f.source, x + 6, kfY + 26 + f.captionH + 3, { width: inner });
  });
  const mapY = kfY + boxH + 10;
  // The map takes the rest of the page above the legend (about 60 pt) and the footer.
  const frame: Frame = { x: M, y: mapY, w: CONTENT_W, h: Math.max(300, FOOTER_Y - 70 - mapY) };
  const { states, counties } = atlas();
  const map = layoutMap({
    frame,
    event: { lng: inputs.event.lng, lat: inputs.event.lat },
    rings: inputs.rings.map((r) => ({ label: r.props.label, geometry: r.geometry })),
    track: inputs.event.props.observations
      .filter((o) => o.kind === 'wind_speed_kt' && o.lat !== null && o.lng !== null && o.observed_at <= inputs.now)
      .map((o) => ({ lng: o.lng!, lat: o.lat!, time: o.observed_at })),
    hospitals: inputs.hospitals.list,
    states,
    counties,
  });
  drawMap(doc, map);
  legend(doc, inputs, map, mapY + frame.h + 10);

  // Page 2 on: the sections, then sources and the notice.
  doc.addPage();
  doc.y = M;
  for (const s of b.sections) {
    heading(doc, s.heading, s.blocks[0]?.kind === 'chart' ? 210 : 48);
    for (const bl of s.blocks) {
      block(doc, bl);
      doc.y += 3;
    }
  }
  heading(doc, 'Sources');
  table(doc, {
    columns: ['figure', 'source', 'ingested at'],
    widths: [0.3, 0.52, 0.18],
    rows: b.sources.map((s) => [
      s.what,
      s.url ? `${s.source} - ${s.url}` : s.source,
      s.ingested_at ? fmtTime(s.ingested_at) : '',
    ]),
  });
  heading(doc, 'Notice');
  paragraph(doc, b.notice, { bold: true, size: 9 });
  const pages = doc.bufferedPageRange().count;
  const pdf = await finish(doc, `${b.notice}`);
  return { pdf, pages, map };
}

export async function renderIcs209Pdf(f: Ics209): Promise<{ pdf: Buffer; pages: number }> {
  const doc = await newDoc(
    `ICS 209: ${f.event_title}`,
    'ICS-209 incident status summary (unofficial, catintel)',
    f.generated_at,
  );
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor(INK)
    .text('INCIDENT STATUS SUMMARY (ICS 209) - UNOFFICIAL, AUTOMATED', M, M, { width: CONTENT_W });
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(INK)
    .text(
      pdfText(
        `${f.form}. Generated ${fmtTime(f.generated_at)}. Report: ${f.report.version}, Rpt # ${f.report.number}.`,
      ),
      { width: CONTENT_W },
    );
  doc.moveDown(0.3);
  paragraph(doc, f.notice, { bold: true, size: 8.5 });
  doc.moveDown(0.4);
  const tag: Record<string, string> = {
    observed: 'observed (source)',
    derived: 'derived',
    model: 'catintel estimate',
    not_known: 'for the incident team',
    not_reported: 'not reported by any source',
  };
  for (const b of f.blocks) {
    const head = `${b.number}. ${b.title}${b.required ? ' *' : ''}`;
    doc.font('Helvetica-Bold').fontSize(8);
    const body = pdfText(b.value);
    doc.font('Helvetica').fontSize(8);
    const h = doc.heightOfString(body, { width: CONTENT_W - 150 }) + 4 + (b.rows ? b.rows.length * 10 : 0);
    ensureSpace(doc, Math.min(h + 6, 300));
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(8).fillColor(INK).text(pdfText(head), M, y, { width: 145 });
    const yHead = doc.y;
    doc
      .font('Helvetica')
      .fontSize(6.5)
      .fillColor(GREY)
      .text(tag[b.basis] + (b.source ? `: ${b.source.name}` : ''), M, yHead, { width: 145 });
    const yTag = doc.y;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(INK)
      .text(body, M + 150, y, { width: CONTENT_W - 150 });
    for (const r of b.rows ?? [])
      doc
        .font('Helvetica')
        .fontSize(7.5)
        .text(pdfText(`${r.label}: ${r.value}`), M + 160, doc.y, { width: CONTENT_W - 160 });
    doc.y = Math.max(doc.y, yTag) + 3;
    doc
      .moveTo(M, doc.y)
      .lineTo(M + CONTENT_W, doc.y)
      .lineWidth(0.3)
      .strokeColor('#aaaaaa')
      .stroke();
    doc.y += 3;
  }
  heading(doc, 'Sources');
  for (const s of f.sources)
    paragraph(
      doc,
      `${s.name}${s.url ? ` - ${s.url}` : ''}${s.ingested_at ? ` (ingested ${fmtTime(s.ingested_at)})` : ''}`,
    );
  const pages = doc.bufferedPageRange().count;
  const pdf = await finish(
    doc,
    `UNOFFICIAL automated ICS-209 generated by catintel at ${fmtTime(f.generated_at)}. For situational awareness only - not for emergency response.`,
  );
  return { pdf, pages };
}
