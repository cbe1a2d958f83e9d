/**
 * `catintel serve`: the /api/v1 HTTP API on the store, with an optional in-process ingest loop that
 * keeps it fresh (the server holds the store's write lock, so it is the one writer).
 */
import type { Command } from 'commander';
import { defaultConfig, defaults } from '../config/defaults.js';
import type { Context } from '../context.js';
import { SOURCE_IDS } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import { ingestSource } from '../ingest/run.js';
import { sourceById } from '../sources/registry.js';
import { Store } from '../store/db.js';
import { clockFrom } from './clock.js';
import { dbPathOf, type GlobalOptions } from './execute.js';
import type { CliIO } from './io.js';
import { reportError } from './main.js';

interface ServeOptions {
  port?: string;
  host?: string;
  trustProxy?: boolean;
  ingestEvery?: string;
}

export function addServeCommand(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('Serve the /api/v1 HTTP API on the store')
    .option('--port <port>', `TCP port (default ${defaults.port})`)
    .option('--host <host>', `address to bind (default ${defaults.host})`)
    .option('--trust-proxy', 'take the client address from X-Forwarded-For (only behind your own proxy)')
    .option('--ingest-every <seconds>', 'ingest every source online every N seconds while serving')
    .addHelpText('after', '\nExamples:\n  $ catintel serve --port 8080\n  $ catintel serve --host 0.0.0.0 --trust-proxy --ingest-every 300\n')
    .action(async (opts: ServeOptions, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      try {
        setExit(await serve(opts, globals, io));
      } catch (err) {
        setExit(reportError(err, io, globals));
      }
    });
}

function positiveInt(name: string, v: string | undefined, fallback: number, max: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new CatintelError('invalid_parameter', `${name} "${v}" must be a whole number from 0 to ${max}`);
  return n;
}

async function serve(opts: ServeOptions, globals: GlobalOptions, io: CliIO): Promise<number> {
  const port = positiveInt('--port', opts.port, defaults.port, 65535);
  const ingestEverySeconds = opts.ingestEvery === undefined ? 0 : positiveInt('--ingest-every', opts.ingestEvery, 0, 86_400 * 7);
  const host = opts.host ?? defaults.host;
  const dbPath = dbPathOf(globals, io);
  const db = await Store.open(dbPath, { holder: 'catintel serve' });
  const ctx: Context = {
    config: defaultConfig({ dbPath }),
    db,
    clock: clockFrom(io.env),
    log: (level, message, fields) => io.stderr(JSON.stringify({ level, message, ...fields }) + '\n'),
    progress: () => {},
  };
  const { createApp } = await import('../http/app.js'); // h3 loads only when serving
  const { serve: listen } = await import('h3');
  const app = createApp({ ctx, trustProxy: opts.trustProxy });
  const server = listen(app.h3, { port, hostname: host, silent: true });
  await server.ready();
  io.stdout(`catintel serving ${dbPath} at http://${host}:${port}/api/v1 (Ctrl-C to stop)\n`);

  let ingesting = false;
  const timer = ingestEverySeconds > 0
    ? setInterval(async () => {
        if (ingesting) return; // a slow feed must not stack runs
        ingesting = true;
        for (const id of SOURCE_IDS) {
          try {
            const s = await ingestSource(ctx, sourceById(id));
            ctx.log('info', 'ingest', { source: id, status: s.status, inserted: s.inserted, updated: s.updated });
          } catch (err) {
            ctx.log('warn', 'ingest failed', { source: id, error: (err as Error).message });
          }
        }
        app.cache.invalidate();
        ingesting = false;
      }, ingestEverySeconds * 1000)
    : undefined;

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
  if (timer) clearInterval(timer);
  await server.close();
  await db.close();
  return 0;
}
