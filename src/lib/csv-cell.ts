/**
 * CSV cells that are safe to open in a spreadsheet (issue 27 item 3). A text cell that begins, after
 * optional spaces, with = + - @ TAB or CR is read by Excel, LibreOffice and Google Sheets as a formula,
 * so a location named `=HYPERLINK(...)` in a user's portfolio would run when our output is opened. As
 * OWASP's CSV Injection guidance recommends, such a cell is prefixed with a single quote and quoted:
 * `'=HYPERLINK(...)`. A plain number (-12.5, +3, 1e-4, with spaces around it) is not a formula and
 * stays as it is, so numeric columns (OED amounts, negative longitudes) keep their values.
 *
 * The bulk scorer applies the same rule to raw input bytes (src/scoring-bulk/formula-field.ts).
 */

/** The bytes that start a formula: = + - @ TAB CR (after optional spaces). */
export const FORMULA_START = new Uint8Array(256);
for (const c of '=+-@\t\r') FORMULA_START[c.charCodeAt(0)] = 1;

const STARTS_FORMULA = /^ *[=+\-@\t\r]/;
/** A number a spreadsheet reads as a number, nothing more: optional sign, digits, point, exponent. */
const PLAIN_NUMBER = /^ *[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)? *$/;

/** Whether a cell's text would be taken for a formula (and is not a plain number). */
export function isFormulaText(s: string): boolean {
  return STARTS_FORMULA.test(s) && !PLAIN_NUMBER.test(s);
}

/**
 * A JS string as one CSV text cell: a would-be formula prefixed with `'` and quoted; otherwise quoted only
 * when it holds a comma, quote, CR or LF (RFC 4180).
 */
export function csvTextCell(s: string): string {
  if (isFormulaText(s)) return formulaCell(s);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A would-be formula as a quoted text cell: `'` before it, quotes doubled. */
export function formulaCell(s: string): string {
  return `"'${s.replaceAll('"', '""')}"`;
}
