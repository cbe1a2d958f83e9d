/**
 * Typed arrays laid out in a WebAssembly module's memory: the host fills and reads them, the module
 * works on them by byte offset. The memory is grown once, to hold every array, before any view is made
 * (growing it later would detach the views).
 */
import { CatintelError } from '../../errors.js';

type ArrayKind =
  | Float64ArrayConstructor
  | Float32ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Uint8ArrayConstructor;
type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;
/** Per array: its contents (copied in), or its kind and length (zero-filled). */
export type ArraySpec = Record<string, Typed | readonly [ArrayKind, number]>;
type ViewOf<E> = E extends readonly [infer K extends ArrayKind, number]
  ? InstanceType<K>
  : E extends Float64Array
    ? Float64Array
    : E extends Float32Array
      ? Float32Array
      : E extends Int32Array
        ? Int32Array
        : E extends Uint32Array
          ? Uint32Array
          : Uint8Array;
export type Views<T extends ArraySpec> = { [K in keyof T]: ViewOf<T[K]> };

const kindOf = (e: Typed | readonly [ArrayKind, number]): [ArrayKind, number] =>
  Array.isArray(e) ? [e[0], e[1]] : [(e as Typed).constructor as ArrayKind, (e as Typed).length];

/** A WebAssembly memory holds at most 4 GiB (32-bit addresses). */
const MAX_BYTES = 2 ** 32;

/** Every array of `spec` in `memory`, after the bytes already in it, 8-byte aligned. */
export function layOut<T extends ArraySpec>(
  memory: WebAssembly.Memory,
  spec: T,
): { views: Views<T>; offsets: Record<keyof T, number> } {
  let at = align(memory.buffer.byteLength);
  const offsets = {} as Record<keyof T, number>;
  for (const name of Object.keys(spec) as (keyof T)[]) {
    const [kind, length] = kindOf(spec[name]);
    offsets[name] = at;
    at = align(at + length * kind.BYTES_PER_ELEMENT);
  }
  if (at > MAX_BYTES) {
    throw new CatintelError(
      'payload_too_large',
      `the loss kernel needs ${(at / 2 ** 30).toFixed(1)} GiB for this run, more than the 4 GiB a WebAssembly memory holds: split the portfolio into smaller inputs, or run fewer samples`,
    );
  }
  const pages = Math.ceil(at / 65536) - memory.buffer.byteLength / 65536;
  if (pages > 0) memory.grow(pages);
  const views = {} as Record<keyof T, Typed>;
  for (const name of Object.keys(spec) as (keyof T)[]) {
    const e = spec[name];
    const [kind, length] = kindOf(e);
    const view = new kind(memory.buffer, offsets[name], length);
    if (!Array.isArray(e)) view.set(e as never);
    views[name] = view;
  }
  return { views: views as Views<T>, offsets };
}

function align(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}
