/**
 * Text for the PDF's standard fonts (Helvetica: WinAnsi encoding). Feed titles carry characters the
 * encoding lacks (Pāhala, arrows); they are folded to their base letter, anything else becomes '?', so a
 * PDF never shows a wrong glyph. Numbers are formatted one way everywhere in the reports.
 */

// The printable WinAnsi range beyond ASCII that Helvetica draws (Latin-1 supplement and a few extras).
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function pdfText(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === '\n' || ch === '\t') out += ch;
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length === 1 && base.codePointAt(0)! < 0x7f ? base : ch === '≥' ? '>=' : ch === '≤' ? '<=' : ch === '→' ? '->' : '?';
    }
  }
  return out;
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

/** A compact money figure: 1.2 bn, 340 m, 12,000. */
export function fmtMoney(x: number, currency = 'USD'): string {
  if (!Number.isFinite(x)) return 'n/a';
  const abs = Math.abs(x);
  if (abs >= 1e9) return `${currency} ${(x / 1e9).toFixed(1)} bn`;
  if (abs >= 1e6) return `${currency} ${(x / 1e6).toFixed(1)} m`;
  return `${currency} ${fmtNumber(x)}`;
}
