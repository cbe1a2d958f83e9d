/**
 * A generated section of a docs page: the text between two HTML-comment markers is replaced; a page
 * without the markers gets them at its end under `heading`. Everything outside the markers is kept.
 */
import fs from 'node:fs';

export function writePageSection(
  file: string,
  markers: { start: string; end: string; heading: string },
  text: string,
): void {
  const { start, end, heading } = markers;
  let doc = fs.readFileSync(file, 'utf8');
  if (!doc.includes(start)) doc = doc.replace(/\n*$/, `\n\n## ${heading}\n\n${start}\n${end}\n`);
  const a = doc.indexOf(start) + start.length;
  const b = doc.indexOf(end);
  if (b < a) throw new Error(`${file}: the marker ${end} must follow ${start}; fix the page and run again`);
  fs.writeFileSync(file, doc.slice(0, a) + '\n' + text + '\n' + doc.slice(b));
}
