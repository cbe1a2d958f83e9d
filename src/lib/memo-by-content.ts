/**
 * Results of a pure, costly function kept by the content of its input (a hash of its JSON), the last
 * `capacity` used: a server asked again about the same event computes the same geometry work again
 * otherwise (an exposure read apportions county population over each ring: seconds for a hurricane's
 * swath). Results are shared between callers, so they are frozen: a caller that changed one would change
 * every later answer.
 */
import { createHash } from 'node:crypto';

export class MemoByContent<I, O extends object> {
  private readonly kept = new Map<string, O>();

  constructor(
    private readonly compute: (input: I) => O,
    private readonly capacity: number,
  ) {}

  get(input: I): O {
    const key = createHash('sha1').update(JSON.stringify(input)).digest('base64');
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last: the first key is the one to drop.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    const out = deepFreeze(this.compute(input));
    this.kept.set(key, out);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
    return out;
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}
