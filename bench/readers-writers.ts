/**
 * `npm run load`, readers beside writers (issue 27 item 9): the load mix's /events/live, /events/nearby and
 * /risk/score requests against the running `catintel serve`, first alone, then while 4 writer loops run CLI
 * commands on the same store. The store is the server's, so each command goes through the CLI's own entry
 * point (run(), as bin/catintel calls it) and is handed to the server over its local channel: the path a
 * cron job's `catintel ingest` takes beside a server. The loops run in this process, so node's start-up
 * (about a second of CPU a command on a two-core machine) does not crowd the server out of its cores;
 * what is measured is whether the server makes its readers wait for the writes.
 *
 * The loops: two ingest loops alternating between two synthetic weeks (new events once, then updates of
 * unchanged content: each one a transaction and a rebuild of the live index), `trigger evaluate` and
 * `keys create`. Goal: readers' p99 under 50 ms beside the writers; the same readers alone give the
 * baseline of the same run and machine.
 */
import os from 'node:os';
import path from 'node:path';
import type { Phase, Req } from './load-types.js';
import { writeSyntheticWeek } from './synthetic-week.js';

const WRITER_LOOPS = 4;
const GOAL_P99_MS = 50;
/** Readers: a handful of clients, each with one request in flight (not a saturation test: the mix is that). */
const READER_CONNECTIONS = 8;

interface Options {
  url: string;
  db: string;
  dir: string;
  env: Record<string, string>;
  now: string;
  seconds: number;
  readers: Req[];
  cli(argv: string[], env: Record<string, string>): Promise<string>;
  drive(url: string, reqs: Req[], seconds: number, connections: number): Promise<Phase>;
}

export async function readersBesideWriters(
  o: Options,
): Promise<{ beside: Phase; line: Record<string, unknown>; summary: string; failed: boolean }> {
  const weeks = [20270101, 20270202].map((seed) => {
    const file = path.join(o.dir, `writer_week_${seed}.geojson`);
    writeSyntheticWeek(file, { now: o.now, events: 1000, seed });
    return file;
  });
  const loops: string[][][] = [
    [
      ['ingest', 'usgs-earthquakes', '--from', weeks[0]],
      ['ingest', 'usgs-earthquakes', '--from', weeks[1]],
    ],
    [
      ['ingest', 'usgs-earthquakes', '--from', weeks[1]],
      ['ingest', 'usgs-earthquakes', '--from', weeks[0]],
    ],
    [['trigger', 'evaluate']],
    [['keys', 'create', '--tier', 'agency', '--name', 'load-writer']],
  ];

  // The machine is shared: its 1-minute load average at each half's start says how quiet the run was.
  const loadAlone = os.loadavg()[0];
  const alone = await o.drive(o.url, o.readers, o.seconds, READER_CONNECTIONS);

  let stop = false;
  const took: number[] = [];
  const failures: string[] = [];
  const writers = loops.slice(0, WRITER_LOOPS).map(async (commands) => {
    for (let i = 0; !stop; i++) {
      const argv = commands[i % commands.length];
      const t0 = performance.now();
      try {
        await o.cli(['--db', o.db, '--quiet', ...argv], o.env);
        took.push(performance.now() - t0);
      } catch (err) {
        failures.push(`${argv.join(' ')}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  });
  const loadBeside = os.loadavg()[0];
  const beside = await o.drive(o.url, o.readers, o.seconds, READER_CONNECTIONS);
  stop = true;
  await Promise.all(writers);

  const sorted = [...took].sort((a, b) => a - b);
  const half = (p: Phase) => ({
    p50_ms: p.p50,
    p99_ms: p.p99,
    max_ms: p.max,
    requests: p.requests,
    errors: p.errors,
    timeouts: p.timeouts,
    by_endpoint: p.byKind,
  });
  const ratio = alone.p99 > 0 ? Math.round((beside.p99 / alone.p99) * 100) / 100 : null;
  const met = beside.p99 < GOAL_P99_MS;
  const line = {
    connections: READER_CONNECTIONS,
    alone: half(alone),
    beside_writers: half(beside),
    writers: {
      loops: WRITER_LOOPS,
      commands: took.length,
      failed: failures.length,
      median_ms: sorted.length ? Math.round(sorted[sorted.length >> 1]) : null,
      first_failures: failures.slice(0, 3),
    },
    p99_ratio: ratio,
    load_average: { alone: round2(loadAlone), beside_writers: round2(loadBeside) },
    goal_p99_ms: GOAL_P99_MS,
    goal_met: met,
  };
  const summary =
    `readers beside ${WRITER_LOOPS} writer loops, ${o.seconds} s each: p99 ${beside.p99} ms (max ${beside.max}) vs ${alone.p99} ms alone (ratio ${ratio}); ` +
    `${took.length} writes, ${failures.length} failed; load average ${round2(loadAlone)} / ${round2(loadBeside)}; goal p99 < ${GOAL_P99_MS} ms: ${met ? 'met' : 'NOT met'}`;
  return { beside, line, summary, failed: failures.length > 0 || beside.errors > 0 || alone.errors > 0 };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
