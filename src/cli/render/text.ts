/**
 * Text building blocks for the human output (`--json` prints the handler's JSON instead): padded tables
 * and indented `key: value` blocks. Every renderer in this folder is made of these two.
 */

export type Align = 'left' | 'right';
export type Cell = string | number | null | undefined;

/**
 * Columns padded to their widest cell, two spaces apart, so no two columns can run together; right-aligned
 * columns (numbers) line up on their last digit. Trailing blanks are trimmed.
 */
export function table(headers: string[], rows: Cell[][], align: (Align | undefined)[] = []): string[] {
  const text = [headers, ...rows.map((r) => r.map(cellText))];
  const widths = headers.map((_, c) => Math.max(...text.map((r) => [...(r[c] ?? '')].length)));
  return text.map((r) =>
    r
      .map((cell, c) =>
        align[c] === 'right' ? cell.padStart(widths[c]) : c === r.length - 1 ? cell : cell.padEnd(widths[c]),
      )
      .join('  ')
      .trimEnd(),
  );
}

export function cellText(v: Cell): string {
  if (v === null || v === undefined || v === '') return '-';
  return String(v);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof v);

/**
 * Any JSON value as `key: value` lines: nested objects indented under their key, lists of scalars on one
 * line, lists of flat objects as a table. `first` names keys to show first, in that order; the rest
 * follow in the object's own order (so a field added later still shows, without a change here).
 */
export function keyValues(obj: Record<string, unknown>, indent = 0, first: string[] = []): string[] {
  const pad = ' '.repeat(indent);
  const keys = [...first.filter((k) => k in obj), ...Object.keys(obj).filter((k) => !first.includes(k))];
  const width = Math.max(0, ...keys.filter((k) => isScalar(obj[k]) || isScalarList(obj[k])).map((k) => k.length + 1));
  const lines: string[] = [];
  for (const key of keys) {
    const v = obj[key];
    if (isScalar(v) || isScalarList(v)) {
      lines.push(
        `${pad}${`${key}:`.padEnd(width)} ${Array.isArray(v) ? v.map(scalarText).join(', ') || '-' : scalarText(v)}`,
      );
    } else if (isPlainObject(v)) {
      lines.push(`${pad}${key}:`, ...(Object.keys(v).length ? keyValues(v, indent + 2) : [`${pad}  -`]));
    } else if (Array.isArray(v) && v.length === 1 && isPlainObject(v[0])) {
      lines.push(`${pad}${key}:`, ...keyValues(v[0], indent + 2)); // one row reads better down than across
    } else if (Array.isArray(v) && v.every(isFlatObject)) {
      const cols = [...new Set(v.flatMap((o) => Object.keys(o as object)))];
      const rows = v.map((o) => cols.map((c) => scalarText((o as Record<string, unknown>)[c])));
      lines.push(
        `${pad}${key}:`,
        ...table(
          cols,
          rows,
          cols.map((c) => (v.every((o) => typeof (o as Record<string, unknown>)[c] === 'number') ? 'right' : 'left')),
        ).map((l) => `${pad}  ${l}`),
      );
    } else if (Array.isArray(v)) {
      lines.push(`${pad}${key}:`);
      for (const item of v) {
        const block = isPlainObject(item) ? keyValues(item, indent + 4) : [`${pad}    ${scalarText(item)}`];
        lines.push(`${pad}  - ${block[0].trimStart()}`, ...block.slice(1));
      }
    }
  }
  return lines;
}

function isScalarList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.every(isScalar);
}

function isFlatObject(v: unknown): boolean {
  return isPlainObject(v) && Object.values(v).every(isScalar);
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '-';
  return String(v);
}
