/**
 * Content negotiation for the answers that are tables (the event collections live, nearby and an event's
 * rings; the EP curve; portfolio exposure: src/columnar/answer-table.ts): a client that lists
 * `application/vnd.apache.arrow.stream` in Accept gets the answer as an Arrow IPC stream; everyone else gets the JSON
 * they get today, whatever else Accept says (JSON is the default, and an Accept we cannot meet is not an
 * error). Arrow wins when it is listed with q > 0 and no JSON type or wildcard is given a higher q.
 */
import { tableToIPC } from 'apache-arrow';
import { answerTable } from '../columnar/answer-table.js';
import type { HandlerResult } from '../handlers/types.js';

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

export { ARROW_HANDLERS } from '../columnar/answer-table.js';

export function prefersArrow(accept: string | null): boolean {
  if (!accept || !accept.includes('arrow')) return false;
  let arrow = 0;
  let other = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [type, ...params] = part.trim().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!(q >= 0)) continue;
    const t = type.trim();
    if (t === ARROW_STREAM) arrow = Math.max(arrow, q);
    else if (t === 'application/json' || t === 'application/geo+json' || t === '*/*' || t === 'application/*')
      other = Math.max(other, q);
  }
  return arrow > 0 && arrow >= other;
}

/**
 * The handler's answer as an Arrow IPC stream: from its columns when it has them (the live index), else
 * from its JSON body (an object, or bytes of it); undefined when the body is another form the caller chose
 * (the EP curve's format=csv), which goes out as it is.
 */
export function arrowStreamOf(handler: string, result: HandlerResult): Buffer | undefined {
  const table = answerTable(handler, result.body, result.columns);
  if (!table) return undefined;
  const bytes = tableToIPC(table, 'stream');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The Arrow form's strong ETag when the JSON's is known without hashing (the live index's pages): the
 * Arrow bytes follow from what that tag names (the same features, variants and head: src/live-index/render.ts),
 * so the tag with a suffix of its own names them; undefined: hash the bytes.
 */
export function arrowEtagOf(result: HandlerResult): string | undefined {
  return result.columns && result.etag?.endsWith('"') ? `${result.etag.slice(0, -1)}.arrow"` : undefined;
}
