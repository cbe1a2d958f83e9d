/**
 * `catintel worker --queue postgres://...`: a scale-out worker (docs/scale-out.md). Takes bulk scoring
 * chunks from the queue until stopped: SIGTERM or SIGINT lets the chunk in hand finish, then it exits 0 (a
 * second signal abandons the chunk, which is retried elsewhere); `--idle-exit SECONDS` ends it once the queue
 * has been empty that long (tests, the bench, batch jobs). One progress line per chunk on stderr (NDJSON
 * off a terminal); the body is what it did.
 */
import { queueUrl } from '../cluster/queue-url.js';
import type { WorkerSummary } from '../cluster/worker.js';
import { num, required } from './params.js';
import { defineHandler } from './types.js';

interface WorkerInput {
  queue: string;
  idleExitSeconds?: number;
}

export const worker = defineHandler<WorkerInput, WorkerSummary>({
  name: 'worker',
  summary: 'A scale-out worker: scores the chunks of `score --queue` runs from a PostgreSQL job queue',
  cli: {
    command: ['worker'],
    options: [
      {
        flags: '--queue <url>',
        description: 'postgres://USER@HOST:PORT/DATABASE of the job queue (docs/scale-out.md)',
      },
      {
        flags: '--idle-exit <seconds>',
        description: 'exit 0 once the queue has had no chunk for this long (default: run until SIGTERM/SIGINT)',
      },
    ],
    examples: [
      'catintel worker --queue postgres://catintel@db:5432/catintel',
      'catintel worker --queue postgres://catintel@127.0.0.1:5432/postgres --idle-exit 10 --json',
    ],
  },
  storeless: true,
  parse(raw) {
    const idle = raw.idle_exit === undefined ? undefined : num(raw, 'idle_exit', { min: 0, max: 86_400 });
    return { queue: queueUrl(required(raw, 'queue')), ...(idle !== undefined && { idleExitSeconds: idle }) };
  },
  async run(ctx, input) {
    const { runWorker } = await import('../cluster/worker.js');
    const stop = new AbortController();
    const kill = new AbortController();
    // First signal: finish the chunk in hand; second: abandon it (it is retried by another worker).
    const onSignal = () => (stop.signal.aborted ? kill.abort() : stop.abort());
    process.on('SIGTERM', onSignal).on('SIGINT', onSignal);
    ctx.signal?.addEventListener('abort', onSignal, { once: true });
    try {
      const body = await runWorker({
        queue: input.queue,
        idleExitSeconds: input.idleExitSeconds,
        progress: ctx.progress,
        log: ctx.log,
        stop: stop.signal,
        kill: kill.signal,
      });
      return { body };
    } finally {
      process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
    }
  },
});
