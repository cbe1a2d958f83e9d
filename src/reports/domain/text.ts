/**
 * Text for the PDF's standard fonts (Helvetica: WinAnsi encoding). Feed titles carry characters the
 * encoding lacks: accented letters beyond Latin-1 (Pāhala) are folded to their base letter and a few
 * symbols spelled out (>=, ->); any other run of characters the font cannot draw (emoji, Hebrew or Arabic
 * script, CJK) becomes one UNDRAWABLE placeholder, so a PDF never shows a wrong glyph or a run of
 * question marks (docs/reports.md "Text the fonts cannot draw"). Numbers are formatted one way everywhere
 * in the reports.
 */

// The printable WinAnsi range beyond ASCII that Helvetica draws (Latin-1 supplement and a few extras).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const SPELLED: Record<string, string> = { '≥': '>=', '≤': '<=', '→': '->' };

/** What stands for a run of characters the PDF's fonts cannot draw. */
export const UNDRAWABLE = '[?]';

/** Joiners and selectors that belong to the undrawable character before them (emoji sequences, bidi marks). */
// eslint-disable-next-line no-misleading-character-class -- each code point is tested alone (one character per call), so combined sequences cannot occur
const ATTACHED = /^[\u200c-\u200f\u202a-\u202e\u2066-\u2069\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]$/u;

export function pdfText(s: string): string {
  let out = '';
  let inRun = false;
  for (const ch of s.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    let drawn: string | null;
    if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === '\n' || ch === '\t')
      drawn = ch;
    else if (SPELLED[ch]) drawn = SPELLED[ch];
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      drawn = base.length === 1 && base.codePointAt(0)! < 0x7f ? base : null;
    }
    if (drawn === null || (inRun && ATTACHED.test(ch))) {
      if (!inRun) out += UNDRAWABLE;
      inRun = true;
    } else {
      out += drawn;
      inRun = false;
    }
  }
  // Words of one right-to-left phrase are separated by spaces: the phrase is one placeholder, not one a word.
  return out.replace(/\[\?\](?: \[\?\])+/g, UNDRAWABLE);
}

/** A title bounded for a page: at most `max` characters, cut at a word where one is near, with an ellipsis. */
export function boundedTitle(title: string, max = 160): string {
  const chars = [...title.replace(/\s+/g, ' ').trim()];
  if (chars.length <= max) return chars.join('');
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** 1234567 -> "1,234,567"; fractions to `digits` places. */
export function fmtNumber(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return 'n/a';
  const fixed = x.toFixed(digits);
  const [int, frac] = fixed.split('.');
  const sign = int.startsWith('-') ? '-' : '';
  const grouped = int.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}

/** "2022-09-29T03:32:09Z" -> "2022-09-29 03:32 UTC". */
export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return 'not known';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/** A compact money figure: $1.2B, $340M, $12K, $950 (USD); EUR 1.2B for other currencies. */
export function fmtMoney(x: number, currency = 'USD'): string {
  if (!Number.isFinite(x)) return 'n/a';
  const abs = Math.abs(x);
  const prefix = currency === 'USD' ? '$' : `${currency} `;
  const sign = x < 0 ? '-' : '';
  const scaled = (v: number, unit: string) =>
    `${sign}${prefix}${v >= 100 ? v.toFixed(0) : v.toFixed(1).replace(/\.0$/, '')}${unit}`;
  if (abs >= 1e9) return scaled(abs / 1e9, 'B');
  if (abs >= 1e6) return scaled(abs / 1e6, 'M');
  if (abs >= 1e4) return scaled(abs / 1e3, 'K');
  return `${sign}${prefix}${fmtNumber(abs)}`;
}
