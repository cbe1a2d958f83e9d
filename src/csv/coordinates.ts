/**
 * Coordinates from CSV bytes. A coordinate is a plain decimal number (optional sign, digits with at most
 * one point, optional exponent), possibly quoted or padded with spaces; anything else (empty, "N/A",
 * "0x1A", "Infinity", "52°N") is unparseable and the row goes to the errors file. Parsing is a loop over a
 * few bytes; only numbers with more than 15 digits or an exponent go through a string and Number().
 */
import { QUOTE, fieldText, type ScannedRow } from './scanner.js';

const SPACE = 0x20;
const TAB = 0x09;

/** The field's number, or NaN when it is not a plain decimal number. */
export function parseCoordinate(r: ScannedRow, i: number): number {
  const b = r.buf;
  let s = r.starts[i];
  let e = r.ends[i];
  while (s < e && (b[s] === SPACE || b[s] === TAB)) s++;
  while (e > s && (b[e - 1] === SPACE || b[e - 1] === TAB)) e--;
  if (r.quoted[i] === 1) {
    if (e - s < 2 || b[s] !== QUOTE || b[e - 1] !== QUOTE) return NaN;
    s++;
    e--;
    while (s < e && b[s] === SPACE) s++;
    while (e > s && b[e - 1] === SPACE) e--;
  }
  if (s === e) return NaN;
  let k = s;
  let negative = false;
  if (b[k] === 0x2d || b[k] === 0x2b) negative = b[k++] === 0x2d; // - +
  // Clinger's fast path: up to 15 significant digits fit a double exactly, and so does 10^f for f <= 22,
  // so m / 10^f is the correctly rounded value, the same double Number() gives, without making a string.
  let digits = 0;
  let mantissa = 0;
  let fraction = -1;
  for (; k < e; k++) {
    const c = b[k];
    if (c >= 0x30 && c <= 0x39) {
      digits++;
      mantissa = mantissa * 10 + (c - 0x30);
      if (fraction >= 0) fraction++;
    } else if (c === 0x2e && fraction < 0) fraction = 0;
    else break;
  }
  if (digits === 0) return NaN;
  if (k === e) {
    if (digits <= 15) {
      const v = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
      return negative ? -v : v;
    }
    return Number(b.toString('latin1', s, e));
  }
  if (b[k] !== 0x65 && b[k] !== 0x45) return NaN; // e E
  k++;
  if (k < e && (b[k] === 0x2d || b[k] === 0x2b)) k++;
  let exp = 0;
  for (; k < e && b[k] >= 0x30 && b[k] <= 0x39; k++) exp++;
  if (exp === 0 || k < e) return NaN;
  return Number(b.toString('latin1', s, e));
}

/** 10^0 .. 10^22 by repeated multiplication: every one is exact in a double. */
const POW10: number[] = [1];
for (let i = 1; i <= 22; i++) POW10.push(POW10[i - 1] * 10);

/**
 * Why a row's coordinates are unusable, or null when they are fine. Called with the parsed values; only
 * the error path looks at the text again for the message.
 */
export function coordinateProblem(
  r: ScannedRow,
  latIndex: number,
  lngIndex: number,
  latName: string,
  lngName: string,
  lat: number,
  lng: number,
): string | null {
  const describe = (i: number, name: string, v: number, lo: number, hi: number): string | null => {
    if (Number.isNaN(v)) {
      const text = fieldText(r, i).trim();
      return text === '' ? `${name} is empty` : `${name} ${JSON.stringify(text.slice(0, 40))} is not a number`;
    }
    if (!(v >= lo && v <= hi)) return `${name} ${v} is out of range [${lo}, ${hi}]`;
    return null;
  };
  const a = describe(latIndex, latName, lat, -90, 90);
  const b = describe(lngIndex, lngName, lng, -180, 180);
  return a && b ? `${a}; ${b}` : (a ?? b);
}
