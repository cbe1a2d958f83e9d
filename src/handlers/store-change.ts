/** What a writing handler's store change may have touched, for the event stream (src/stream/store-change.ts). */
import type { StoreChange } from '../stream/store-change.js';
import type { Handler } from './types.js';

export function storeChangeOf(h: Pick<Handler, 'evaluatesTriggers'>): StoreChange {
  return { evaluatedTriggers: h.evaluatesTriggers === true };
}
