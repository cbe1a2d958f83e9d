/**
 * `catintel data build [--from DIR]`: rebuild the hazard baseline (data/baseline/hazard-grid.bin and
 * manifest.json under the package root) and the embedded infrastructure (data/infrastructure/,
 * docs/intelligence.md) from the public catalogs in DIR (default: the shared data
 * directory beside the package, or CATINTEL_SHARED_DATA). The same inputs give the same bytes
 * (docs/data-baseline.md). The build runs into a temporary directory beside data/baseline and its files
 * replace the committed ones only when it succeeded, so a failed build leaves the old baseline in place.
 * CLI only and storeless; the builder is imported lazily (it pulls in the whole data pipeline).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { defaultBaselineDir } from '../reference-data/load-baseline.js';
import { defaultInfraDir } from '../intelligence/infrastructure/store.js';
import { CatintelError } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';
import { str } from './params.js';
import { defineHandler } from './types.js';

export interface DataBuildInput {
  from: string;
}

export interface DataBuildBody {
  from: string;
  out: string;
  files: { file: string; bytes: number }[];
  cells: number;
  channels: number;
  seconds: number;
}

export const dataBuild = defineHandler<DataBuildInput, DataBuildBody>({
  name: 'data.build',
  summary:
    'Rebuild the hazard baseline (data/baseline) and the embedded infrastructure (data/infrastructure) from the public catalogs',
  cli: {
    command: ['data', 'build'],
    options: [
      {
        flags: '--from <dir>',
        description:
          'the shared public data directory (default ../shared/data beside the package, env CATINTEL_SHARED_DATA)',
      },
    ],
    examples: ['catintel data build', 'catintel data build --from /data/catintel-shared --json'],
  },
  storeless: true,
  parse(raw) {
    return { from: str(raw, 'from') ?? '' };
  },
  async run(ctx, input) {
    const t0 = performance.now();
    const from = path.resolve(
      input.from || ctx.config.env?.CATINTEL_SHARED_DATA || path.join(packageRoot(), '..', 'shared', 'data'),
    );
    const stat = await fs.promises.stat(from).catch(() => null);
    if (!stat?.isDirectory())
      throw new CatintelError(
        'invalid_input',
        `--from ${from} is not a directory; give the shared public data directory (SOURCES.md)`,
      );
    const outDir = defaultBaselineDir();
    const tmp = path.join(path.dirname(outDir), `.baseline-build.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    const { buildBaseline } = await import('../databuild/build.js');
    const infraDir = defaultInfraDir();
    const infraTmp = path.join(
      path.dirname(infraDir),
      `.infrastructure-build.${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
    );
    try {
      ctx.progress({ task: 'data build', done: 0, total: 1, message: `reading ${from}` });
      const r = await buildBaseline({
        fromDir: from,
        outDir: tmp,
        log: (m) => ctx.progress({ task: 'data build', done: 0, total: 1, message: m }),
      });
      // Both built before either replaces the committed files: a failure leaves both as they were.
      ctx.progress({ task: 'data build', done: 0, total: 1, message: 'infrastructure: HIFLD facilities' });
      const { buildInfrastructure } = await import('../intelligence/infrastructure/build.js');
      buildInfrastructure(from, infraTmp);
      await fs.promises.mkdir(outDir, { recursive: true });
      const files = [];
      for (const built of [r.gridPath, r.manifestPath]) {
        const target = path.join(outDir, path.basename(built));
        await fs.promises.rename(built, target);
        files.push({ file: target, bytes: (await fs.promises.stat(target)).size });
      }
      await fs.promises.mkdir(infraDir, { recursive: true });
      for (const name of (await fs.promises.readdir(infraTmp)).sort()) {
        const target = path.join(infraDir, name);
        await fs.promises.rename(path.join(infraTmp, name), target);
        files.push({ file: target, bytes: (await fs.promises.stat(target)).size });
      }
      ctx.progress({ task: 'data build', done: 1, total: 1, message: 'done' });
      return {
        body: {
          from,
          out: outDir,
          files,
          cells: r.cells,
          channels: r.channels,
          seconds: Math.round(performance.now() - t0) / 1000,
        },
      };
    } catch (err) {
      // A missing input file is a usage problem (exit 2) and its message names the file; anything else is ours.
      if (err instanceof Error && !(err instanceof CatintelError) && /not found under/.test(err.message)) {
        throw new CatintelError('invalid_input', err.message.split('\n')[0], { cause: err });
      }
      throw err;
    } finally {
      await fs.promises.rm(tmp, { recursive: true, force: true });
      await fs.promises.rm(infraTmp, { recursive: true, force: true });
    }
  },
});
