/** Asserts that fn throws our invalid_input error (an unreadable or wrong-format feed) and returns it. */
import { expect } from 'vitest';
import { CatintelError } from '../../src/errors.js';

export function invalidInput(fn: () => unknown): CatintelError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).code).toBe('invalid_input');
    return err as CatintelError;
  }
  throw new Error('expected invalid_input');
}
