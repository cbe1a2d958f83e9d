/**
 * Loss-kernel threads started before their run is ready (kernel-threads.ts runs the kernel on them). A
 * thread's start (its modules, its WebAssembly) takes a few hundred ms: a caller that knows a large run is
 * coming starts the pool early, so the start overlaps the run's preparation on this thread. Meanwhile a
 * thread can read the model's damage side (`damageModel`), which the kernel needs last and which does not
 * depend on the book: this thread goes on with the book's input files instead. The thread that read it keeps
 * its own copy, so the kernel's input is sent to it without those arrays.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { keepDamageModel, keptDamageModel, readDamageModel, type DamageModel } from './io/damage-model.js';
import type { KernelInput, KernelOutput } from './kernel.js';

const WORKER = new URL('./kernel-worker.js', import.meta.url);

/** Threads need the compiled worker (kernel-worker.js beside this file); run from the TypeScript sources there is none. */
export function workerAvailable(): boolean {
  return fs.existsSync(fileURLToPath(WORKER));
}

/** A share of a run: the input (its damage side left out when the thread holds it), the shared blocks, the thread's number. */
export type KernelRunRequest = {
  run: { input: KernelInput; blocks: SharedArrayBuffer; thread: number; block: number; damageFrom: string | null };
};
/** The messages a kernel thread takes: read a model's damage side and keep it, or run a share. */
export type KernelRequest = { damage: string } | KernelRunRequest;
/** Its answers, one per request. */
export type KernelReply = { damage: DamageModel } | { out: KernelOutput } | { failed: string };

/**
 * The kernel input without its damage side, for a thread that holds the same model (each piece where
 * computeLosses puts it; undefined when the input's are not that model's); withDamage puts it back there.
 */
export function withoutDamage(k: KernelInput, dm: DamageModel): KernelInput | undefined {
  const s = k.sample;
  const same =
    k.gul.vuln === dm.vuln &&
    k.gul.damage === dm.damage &&
    (!s ||
      (s.vulnProbs === dm.damage.probs &&
        s.binFrom === dm.binFrom &&
        s.binTo === dm.damage.binTo &&
        s.binMean === dm.damage.interp));
  if (!same) return undefined;
  const gul = { ...k.gul, vuln: undefined!, damage: undefined! };
  const sample = s && { ...s, vulnProbs: undefined!, binFrom: undefined!, binTo: undefined!, binMean: undefined! };
  return { ...k, gul, sample, progress: undefined };
}

export function withDamage(k: KernelInput, dm: DamageModel): KernelInput {
  const s = k.sample;
  return {
    ...k,
    gul: { ...k.gul, vuln: dm.vuln, damage: dm.damage },
    sample: s && {
      ...s,
      vulnProbs: dm.damage.probs,
      binFrom: dm.binFrom,
      binTo: dm.damage.binTo,
      binMean: dm.damage.interp,
    },
  };
}

/** A request sent or waiting its turn, and its caller's ends. */
interface Pending {
  message: KernelRequest;
  resolve: (reply: KernelReply) => void;
  reject: (err: Error) => void;
}

/**
 * One thread and the requests it answers in turn. A request is posted at once when the thread is free:
 * a run's share must reach it before this thread starts its own (synchronous) share of the blocks.
 */
class KernelThread {
  readonly worker: Worker;
  /** The model folder whose damage side the thread holds, and this process's copy of it once read. */
  held?: { dir: string; model: Promise<DamageModel>; read?: DamageModel };
  private readonly pending: Pending[] = [];
  private failure?: Error;

  constructor() {
    this.worker = new Worker(WORKER);
    this.worker.on('message', (m: KernelReply) => {
      const p = this.pending.shift()!;
      if (this.pending.length > 0) this.worker.postMessage(this.pending[0].message);
      if ('failed' in m) p.reject(new Error(m.failed));
      else p.resolve(m);
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const p of this.pending.splice(0)) p.reject(err);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`loss kernel worker exited with code ${code}`)));
  }

  request(message: KernelRequest): Promise<KernelReply> {
    return new Promise<KernelReply>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.pending.push({ message, resolve, reject });
      if (this.pending.length === 1) this.worker.postMessage(message);
    });
  }
}

export class KernelPool {
  private readonly threads: KernelThread[];

  /** `size` threads (none without the compiled worker: the run then takes this thread alone or runShares). */
  constructor(size: number) {
    this.threads = workerAvailable() ? Array.from({ length: Math.max(0, size) }, () => new KernelThread()) : [];
  }

  get size(): number {
    return this.threads.length;
  }

  /**
   * The model's damage side (readDamageModel), read on the first thread while this one does other work,
   * and kept here too (lib/file-memo.ts). Read here when the pool has no thread, and not read again when
   * this process keeps it already (a server's next run on the same package).
   */
  damageModel(modelDir: string): Promise<DamageModel> {
    const t = this.threads[0];
    const here = keptDamageModel(modelDir);
    if (!t || here) return Promise.resolve().then(() => here ?? readDamageModel(modelDir));
    if (t.held?.dir !== modelDir) {
      const held: NonNullable<KernelThread['held']> = {
        dir: modelDir,
        model: t
          .request({ damage: modelDir })
          .then((m) => (held.read = keepDamageModel(modelDir, (m as { damage: DamageModel }).damage))),
      };
      // Awaited by the run (or not at all when the run reads the model itself): not an unhandled rejection meanwhile.
      held.model.catch(() => undefined);
      t.held = held;
    }
    return t.held.model;
  }

  /**
   * Thread `w`'s share of a run (runKernelParallel): its records. Sent before this returns (the caller
   * goes on with its own share synchronously); without the damage side when the thread holds it.
   */
  run(w: number, share: Omit<KernelRunRequest['run'], 'damageFrom'>): Promise<KernelOutput> {
    const t = this.threads[w];
    const held = t.held?.read;
    const stripped = held && withoutDamage(share.input, held);
    const input = stripped ?? { ...share.input, progress: undefined };
    const damageFrom = stripped ? t.held!.dir : null;
    return t.request({ run: { ...share, input, damageFrom } }).then((reply) => (reply as { out: KernelOutput }).out);
  }

  close(): void {
    for (const t of this.threads) void t.worker.terminate();
  }
}
