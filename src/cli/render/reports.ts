/** Human output of `catintel ics209` (the form, block by block) and of the report files written with --out. */
import { keyValues } from './text.js';

interface Block {
  number: number;
  title: string;
  basis: string;
  value: string;
  rows?: { label: string; value: string }[];
  source?: { name: string };
}

const BASIS: Record<string, string> = {
  observed: 'observed',
  derived: 'derived',
  model: 'catintel estimate',
  not_known: 'not known',
  not_reported: 'not reported',
};

export function ics209Text(body: Record<string, unknown>): string {
  const blocks = body.blocks as Block[] | undefined;
  if (!Array.isArray(blocks)) return keyValues(body).join('\n') + '\n';
  const lines = [String(body.form), `${String(body.notice)}`, `generated: ${String(body.generated_at)}`, ''];
  for (const b of blocks) {
    const indent = ' '.repeat(String(b.number).length + 2);
    const [first, ...rest] = b.value.split('\n');
    lines.push(
      `${b.number}. ${b.title} [${BASIS[b.basis] ?? b.basis}${b.source ? `: ${b.source.name}` : ''}]`,
      `${indent}${first}`,
      ...rest.map((l) => `${indent}${l}`),
    );
    for (const r of b.rows ?? []) lines.push(`${indent}  ${r.label}: ${r.value}`);
  }
  lines.push('', `not known or not reported: blocks ${(body.not_known as number[]).join(', ')}`);
  return lines.join('\n') + '\n';
}
