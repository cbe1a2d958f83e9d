/**
 * Text from outside (feed titles, portfolio names, CSV cells) shown on a terminal (issue 27 item 5): a
 * control character in it would act instead of showing. ESC starts sequences that recolour or rewrite the
 * screen, CR returns to the line start and overwrites it, NUL, TAB and LF break a table's columns and rows,
 * and bidirectional overrides reorder what follows. Every such character is shown as its JSON-style escape
 * (`\u001b`, `\r`, `\t`, `\n`, `\u0000`, `\u202e`), the form the CLI's one-line errors already used, so the
 * output keeps one value per cell and one row per line and says exactly what the data held. A backslash
 * is left as it is: human output is for reading, `--json` is the exact form.
 */

/** C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
const SHORT: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** The string with every control character written as its escape. */
export function escapeControls(s: string): string {
  if (!CONTROL.test(s)) return s;
  return s.replace(CONTROLS, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A document printed as it is (a CSV or SVG body): its lines kept, control characters within them escaped. */
export function escapeControlsKeepLines(s: string): string {
  return s.split('\n').map(escapeControls).join('\n');
}

/** A JSON-like value with escapeControls applied to every string in it, object keys included (a copy). */
export function escapeControlsDeep(v: unknown): unknown {
  if (typeof v === 'string') return escapeControls(v);
  if (Array.isArray(v)) return v.map(escapeControlsDeep);
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [escapeControls(k), escapeControlsDeep(x)]));
  }
  return v;
}
