/**
 * A live hurricane's loss band on a large book (issue 34: "loss band for 100,000 locations and a 50-member
 * ensemble under 10 s"):
 *
 *   npm run bench -- event-loss [--locations N] [--members M] [--models DIR]
 *
 * Ian 2022 replayed from the shared b-deck as of its last fix before landfall (2022-09-28 18:00 UTC, as
 * test/event-loss.test.ts does), a seeded book of --locations (default 100,000) around its landfall on
 * Florida's Gulf coast (bench/ep-book.ts, region `ian`) imported as a stored portfolio, then
 * `catintel portfolio event-loss ID --event al092022 --members M` (default 50) with the CLI's default damage
 * samples and seed: the observed track and M forecast members through the hurricane package's wind and
 * surge footprint, an event package, the keys, Oasis input files and the kernel, and the band.
 *
 * --models DIR (or CATINTEL_BENCH_EVENT_MODELS, else CATINTEL_MODELS, else models/ of the project when it
 * holds a hurricane package): the folder holding the hurricane package; without one a 100-year package is
 * built here first (the event replaces the package's catalog, so its length matters only to what the keys
 * lookup reaches). Setup (the store, the b-deck, the import) is not measured; the event-loss command runs
 * in a fresh node process (bench/child.ts): `seconds` its wall time, `cpu_seconds` its user + system CPU,
 * `peak_rss_mb` its own peak, `work_seconds` the command alone (without node's start and module loading);
 * the 1-minute load average is recorded before and after (the machine is shared).
 *
 * Line: event_loss.hurricane.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../src/lib/package-root.js';
import { DEFAULT_MEMBERS } from '../src/handlers/portfolio-event-loss.js';
import { child, type ChildResult } from './child.js';
import { command, option, whole } from './child-options.js';
import { writeEpBook } from './ep-book.js';
import { emit } from './report.js';

const BOOK_SEED = 20260930;
/** Ian's last b-deck fix before landfall at Cayo Costa (19:05 UTC). */
const AS_OF = '2022-09-28T18:00:00Z';
const EVENT = 'al092022';
const TARGET = { locations: 100_000, members: 50, seconds: 10 };

const round = (x: number) => Math.round(x * 1000) / 1000;
const load = () => Math.round(os.loadavg()[0] * 100) / 100;

/** The models folder holding a hurricane package: given, the project's, or one built into `dir`. */
async function hurricaneModels(dir: string): Promise<string> {
  const given = option('models', 'CATINTEL_BENCH_EVENT_MODELS') ?? process.env.CATINTEL_MODELS;
  const has = (models: string) => fs.existsSync(path.join(models, 'hurricane', 'manifest.json'));
  if (given) {
    const models = path.resolve(given);
    if (!has(models))
      throw new Error(
        `--models ${given}: no hurricane package in ${path.join(models, 'hurricane')}; build one with \`catintel model build hurricane --years 100 --out ${path.join(models, 'hurricane')}\``,
      );
    return models;
  }
  const own = path.join(packageRoot(), 'models');
  if (has(own)) return own;
  const models = path.join(dir, 'models');
  process.stderr.write('event-loss: building a 100-year hurricane package (not measured) ...\n');
  await child(
    command(['model', 'build', 'hurricane', '--years', '100', '--seed', '1', '--out', path.join(models, 'hurricane')]),
  );
  return models;
}

export async function benchEventLoss(sharedData: string): Promise<void> {
  const locations = whole('locations', option('locations', 'CATINTEL_BENCH_EVENT_LOCATIONS')) ?? TARGET.locations;
  const members = whole('members', option('members', 'CATINTEL_BENCH_EVENT_MEMBERS')) ?? DEFAULT_MEMBERS;
  const dir = fs.mkdtempSync(path.join(process.env.CATINTEL_BENCH_DIR ?? os.tmpdir(), 'catintel-bench-event-loss-'));
  try {
    const models = await hurricaneModels(dir);
    const manifest = JSON.parse(fs.readFileSync(path.join(models, 'hurricane', 'manifest.json'), 'utf8'));
    const book = writeEpBook(dir, {
      rows: locations,
      seed: BOOK_SEED,
      region: 'ian',
      cenPopPath: path.join(sharedData, 'exposure', 'CenPop2020_Mean_CO.txt'),
    });
    const db = path.join(dir, 'store.duckdb');
    const at = ['--db', db, '--as-of', AS_OF];
    const bdeck = path.join(sharedData, 'hazard_history', 'hurricanes', 'bal092022.dat');
    await child(command([...at, 'ingest', 'nhc', '--from', bdeck]));
    const imported = await child(command([...at, 'portfolio', 'import', book.location, '--name', 'Ian bench book']));
    const id = JSON.parse(imported.output).answer.id as string;

    const loadBefore = load();
    process.stderr.write(
      `event-loss: ${locations} locations x ${members} members of Ian as of ${AS_OF} (load ${loadBefore}) ...\n`,
    );
    const r: ChildResult = await child(
      command([...at, 'portfolio', 'event-loss', id, '--event', EVENT, '--members', String(members)], {
        CATINTEL_MODELS: models,
        CATINTEL_SHARED_DATA: sharedData,
      }),
    );
    const loadAfter = load();
    const { seconds: work, answer } = JSON.parse(r.output);
    emit({
      name: 'event_loss.hurricane',
      n: locations,
      seconds: round(r.seconds),
      per_second: Math.round(locations / r.seconds),
      peak_rss_mb: r.peakRssMb,
      cpu_seconds: r.cpuSeconds,
      work_seconds: round(work),
      locations,
      locations_modelled: answer.NumLocationsModelled,
      locations_in_footprint: answer.NumLocationsInFootprint,
      members: answer.members,
      samples: answer.samples,
      seed: answer.seed,
      event: `${EVENT} as of ${AS_OF}`,
      footprint_version: answer.footprint.version,
      model: `${manifest.model} ${manifest.years} years seed ${manifest.seed}`,
      gul_mean: answer.gul.MeanLossAmt,
      gul_p10: answer.gul.P10LossAmt,
      gul_p90: answer.gul.P90LossAmt,
      load_average: [loadBefore, loadAfter],
      cores: os.availableParallelism(),
      target: TARGET,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
