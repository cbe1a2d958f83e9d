/**
 * A loss-kernel thread (kernel-pool.ts): reads a model's damage side when asked (and keeps it), and runs
 * the kernel on the blocks of events it takes from a run's shared counter, handing the summary records
 * back (their buffers moved, not copied). It answers each request in turn until the pool ends it.
 */
import { parentPort } from 'node:worker_threads';
import { readDamageModel, type DamageModel } from './io/damage-model.js';
import { Blocks } from './kernel-threads.js';
import { withDamage, type KernelReply, type KernelRequest } from './kernel-pool.js';
import { recordLists, runKernel } from './kernel.js';

let held: { dir: string; model: DamageModel } | undefined;

function answer(m: KernelRequest): { reply: KernelReply; moved: ArrayBuffer[] } {
  if ('damage' in m) {
    held = { dir: m.damage, model: readDamageModel(m.damage) };
    return { reply: { damage: held.model }, moved: [] };
  }
  const { input, blocks, thread, block, damageFrom } = m.run;
  if (damageFrom !== null && held?.dir !== damageFrom)
    throw new Error(`loss kernel worker: sent a run without the damage side of ${damageFrom}, which it does not hold`);
  const k = damageFrom === null ? input : withDamage(input, held!.model);
  const out = runKernel(k, new Blocks(k.events.length, block, blocks).claimer(thread), block);
  const moved = recordLists(out).flatMap((r) =>
    [r.eventId, r.summaryId, r.mean, r.max, r.exposure, r.affected, r.sampled].map((a) => a.buffer as ArrayBuffer),
  );
  return { reply: { out }, moved };
}

parentPort!.on('message', (m: KernelRequest) => {
  let a: { reply: KernelReply; moved: ArrayBuffer[] };
  try {
    a = answer(m);
  } catch (err) {
    a = { reply: { failed: (err as Error).message }, moved: [] };
  }
  parentPort!.postMessage(a.reply, a.moved);
});
