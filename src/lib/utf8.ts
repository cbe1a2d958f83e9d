/**
 * Refusing bytes that are not UTF-8 (issue 27 item 4): a lenient decoder turns them into U+FFFD, and
 * the replaced text would be stored and written out as if the caller had sent it. `isUtf8` (simdutf, in
 * Node 20) answers the common all-valid case at memory speed; only a buffer that fails it is walked
 * byte by byte to name the first bad byte.
 */
import { isUtf8 } from 'node:buffer';

/**
 * The offset of the first byte of buf[from, to) that does not start a well-formed UTF-8 sequence (an
 * invalid lead byte, a bad or missing continuation byte, an overlong form, a surrogate, a code point past
 * U+10FFFF), or -1 when the whole stretch is UTF-8. The same bytes TextDecoder's fatal mode refuses.
 */
export function invalidUtf8At(buf: Uint8Array, from = 0, to = buf.length): number {
  if (isUtf8(buf.subarray(from, to))) return -1;
  let i = from;
  while (i < to) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // Unicode Table 3-7: the lead byte fixes the length and the range of the second byte.
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n > to) return i;
    const second = buf[i + 1];
    if (second < lo || second > hi) return i;
    for (let k = 2; k < n; k++) if ((buf[i + k] & 0xc0) !== 0x80) return i;
    i += n;
  }
  return -1; // not reached when isUtf8 said no; kept so the answer never depends on it
}

/**
 * Where a chunk read from the middle of a file may be checked to: `len`, less a multi-byte sequence that
 * the next read completes (its bytes are checked then, with the rest of their row).
 */
export function completeUtf8Prefix(buf: Uint8Array, len: number): number {
  let i = len - 1;
  while (i >= 0 && len - i < 4 && (buf[i] & 0xc0) === 0x80) i--;
  if (i < 0 || buf[i] < 0xc0) return len;
  const need = buf[i] >= 0xf0 ? 4 : buf[i] >= 0xe0 ? 3 : 2;
  return len - i < need ? i : len;
}
