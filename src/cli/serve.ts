/**
 * `catintel serve`: the /api/v1 HTTP API on the store (put together in assemble-server.ts), with an optional
 * in-process ingest loop that keeps it fresh (ingest-loop.ts; the server holds the store's write lock, so it
 * is the one writer). Every other CLI command on the same store runs inside it, through the local channel
 * (src/channel/local-channel.ts). On SIGTERM or SIGINT it drains: no new connections, in-flight requests and
 * local commands finish or are cancelled, the ingest in progress ends, the store closes cleanly.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { defaults } from '../config/defaults.js';
import { CatintelError } from '../errors.js';
import { ADMIN_TOKEN_RE, newAdminToken } from '../auth/api-keys.js';
import { httpDefaults, scaledLimits, type RequestsPerMinute } from '../http/limits.js';
import { parseOrigins } from '../http/cors.js';
import { LOOPBACK, trustedProxiesOf } from '../http/trusted-proxies.js';
import { clearServeInfo, serveInfoPathOf } from '../channel/serve-info.js';
import { dbPathOf, type GlobalOptions } from './execute.js';
import type { CliIO } from './io.js';
import { reportError } from './report-error.js';

interface ServeOptions {
  port?: string;
  host?: string;
  trustProxy?: string | boolean;
  ingestEvery?: string;
  rateLimit?: string;
  corsOrigin?: string;
  accessLog?: string;
}

export function addServeCommand(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('Serve the /api/v1 HTTP API on the store')
    .option('--port <port>', `TCP port (default ${defaults.port}; 0 picks a free one)`)
    .option('--host <host>', `address to bind (default ${defaults.host})`)
    .option(
      '--trust-proxy [proxies]',
      'the proxies in front of the server: a hop count (1) or addresses/CIDR blocks (10.0.0.0/8,::1); bare: loopback. The client is the first X-Forwarded-For address from the right that is not one',
    )
    .option('--ingest-every <seconds>', 'ingest every source online every N seconds while serving')
    .option(
      '--rate-limit <off|N>',
      'LOAD TESTS ONLY: "off", or multiply every per-minute limit by N (default: the contract limits)',
    )
    .option(
      '--cors-origin <origins>',
      'comma list of browser origins allowed to call the API, or * (env CATINTEL_CORS_ORIGINS)',
    )
    .option('--access-log <file>', 'NDJSON access log: a file to append to, "-" for stderr (default), or "off"')
    .addHelpText(
      'after',
      [
        '',
        'Environment:',
        '  CATINTEL_JWT_SECRET     HS256 secret for JWT access tokens (>= 32 chars; `catintel token issue` uses it too)',
        '  CATINTEL_JWKS           JWKS file or https URL for RS256/ES256 tokens',
        '  CATINTEL_JWT_ISSUER     required iss (default catintel); CATINTEL_JWT_AUDIENCE required aud (default catintel-api)',
        '  CATINTEL_ADMIN_TOKEN    fixed admin token (ci_admin_...); default: a new one per run, in <db>.serve.json',
        '',
        'Examples:',
        '  $ catintel serve --port 8080',
        '  $ catintel serve --host 0.0.0.0 --trust-proxy 10.0.0.0/8 --ingest-every 300 --cors-origin https://app.example.com',
        '  $ catintel serve --trust-proxy   # behind nginx on this machine (loopback)',
        '  $ catintel serve --port 0 --rate-limit 100 --access-log /tmp/access.ndjson   # load test',
        '',
      ].join('\n'),
    )
    .action(async (opts: ServeOptions, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      try {
        setExit(await serve(opts, globals, io));
      } catch (err) {
        setExit(reportError(err, io, globals));
      }
    });
}

function wholeNumber(name: string, v: string | undefined, fallback: number, max: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max)
    throw new CatintelError('invalid_parameter', `${name} "${v}" must be a whole number from 0 to ${max}`);
  return n;
}

export function parseRateLimit(v: string | undefined): RequestsPerMinute | 'off' {
  if (v === undefined || v === 'on') return httpDefaults.requestsPerMinute;
  if (v === 'off') return 'off';
  const factor = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(factor >= 1) || factor > 10_000) {
    throw new CatintelError(
      'invalid_parameter',
      `--rate-limit "${v}" must be "off" or a factor from 1 to 10000 that multiplies every limit`,
    );
  }
  return scaledLimits(factor);
}

function adminTokenOf(io: CliIO): string {
  const fixed = io.env.CATINTEL_ADMIN_TOKEN;
  if (!fixed) return newAdminToken();
  if (!ADMIN_TOKEN_RE.test(fixed))
    throw new CatintelError(
      'invalid_parameter',
      'CATINTEL_ADMIN_TOKEN must look like ci_admin_ followed by 43 letters or digits',
    );
  return fixed;
}

function accessLogOf(v: string | undefined, io: CliIO): { write?: (line: string) => void; close: () => Promise<void> } {
  if (v === 'off') return { close: async () => {} };
  if (v === undefined || v === '-') return { write: io.stderr, close: async () => {} };
  const stream = fs.createWriteStream(v, { flags: 'a' });
  return { write: (line) => stream.write(line), close: () => new Promise((r) => stream.end(r)) };
}

async function serve(opts: ServeOptions, globals: GlobalOptions, io: CliIO): Promise<number> {
  const port = wholeNumber('--port', opts.port, defaults.port, 65535);
  const ingestEverySeconds = wholeNumber('--ingest-every', opts.ingestEvery, 0, 86_400 * 7);
  const host = opts.host ?? defaults.host;
  const rateLimit = parseRateLimit(opts.rateLimit);
  const trustProxy = typeof opts.trustProxy === 'string' ? opts.trustProxy : opts.trustProxy ? LOOPBACK : undefined;
  trustedProxiesOf(trustProxy); // a bad value is a usage error before the store is opened
  // The server's own code (the HTTP app, jose for the key sets) loads when it starts, not with every command's help.
  const [{ authConfigFromEnv }, { assembleServer }, { startIngestLoop }] = await Promise.all([
    import('../auth/config-from-env.js'),
    import('./assemble-server.js'),
    import('./ingest-loop.js'),
  ]);
  const auth = authConfigFromEnv(io.env);
  const adminToken = adminTokenOf(io);
  const corsOrigins = parseOrigins(opts.corsOrigin ?? io.env.CATINTEL_CORS_ORIGINS);
  const dbPath = dbPathOf(globals, io);
  const log = (level: string, message: string, fields?: Record<string, unknown>) =>
    io.stderr(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n');
  const accessLog = accessLogOf(opts.accessLog, io);

  const { ctx, db, server, liveIndex, channel, stopping, storeChanged } = await assembleServer(
    {
      dbPath,
      host,
      port,
      auth,
      adminToken,
      corsOrigins,
      rateLimit,
      trustProxy,
      accessLog: accessLog.write,
      asOf: globals.asOf,
      log,
    },
    io,
  );
  // Listened for before the ready line: a SIGTERM the moment a supervisor sees it must drain and close the
  // store, not kill the process with the store open.
  const stopSignal = new Promise<string>((resolve) => {
    const stop = (s: string) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve(s);
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
  io.stdout(`catintel serving ${dbPath} at ${server.url}/api/v1 (Ctrl-C to stop)\n`);
  if (!auth.secret && !auth.jwks)
    log('warn', 'no CATINTEL_JWT_SECRET or CATINTEL_JWKS: JWT access tokens are refused; API keys work');
  if (rateLimit === 'off') log('warn', 'rate limiting is OFF (--rate-limit off): for load tests only');
  if (channel)
    log(
      'info',
      'CLI commands on this store run in this server; admin token for /api/v1/admin is in ' + serveInfoPathOf(dbPath),
      { socket: channel.socketPath },
    );

  const ingestLoop = await startIngestLoop(ctx, ingestEverySeconds, storeChanged);

  const signal = await stopSignal;
  log('info', 'stopping', { signal });
  ingestLoop.halt();
  stopping.abort(); // an ingest in progress stops at its next check
  await channel?.close(); // running local commands are cancelled the same way, and awaited
  await server.stop();
  await ingestLoop.settled();
  await liveIndex.ready(); // a build in flight reads the store: let it end before the store closes
  await db.close();
  clearServeInfo(dbPath);
  await accessLog.close();
  log('info', 'stopped');
  return 0;
}
