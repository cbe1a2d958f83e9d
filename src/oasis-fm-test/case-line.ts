/** One FM acceptance case as one line of text: passed, refused with the reason, or the first difference. */
import type { FmTestCaseResult } from './run-case.js';

export function caseLine(c: FmTestCaseResult): string {
  if (c.status === 'passed') return `${c.case}: passed`;
  if (c.status === 'refused') return `${c.case}: refused: ${c.reason}`;
  return `${c.case}: failed: ${c.file}${c.line !== undefined ? ` line ${c.line}` : ''}: ${c.detail}`;
}
