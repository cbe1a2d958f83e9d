/**
 * The app on a real socket (h3's srvx node adapter), with the timeouts that keep a slow client from
 * pinning a connection, and a graceful stop: stop accepting, let in-flight requests finish (answering
 * with `Connection: close`), cut what is left after the grace period.
 */
import { maxHeaderSize, type Server as HttpServer } from 'node:http';
import { serve } from 'h3';
import { createApp, type App, type AppOptions } from './app.js';
import { httpDefaults } from './limits.js';

export interface ServerOptions extends AppOptions {
  host: string;
  port: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

export interface RunningServer {
  app: App;
  /** "http://127.0.0.1:8080" (the real port when 0 was asked for). */
  url: string;
  /** Resolves when every connection is closed; in-flight requests get graceMs to finish. */
  stop(graceMs?: number): Promise<void>;
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const app = createApp(o);
  const timeouts = {
    headersTimeout: o.headersTimeoutMs ?? httpDefaults.headersTimeoutMs,
    requestTimeout: o.requestTimeoutMs ?? httpDefaults.requestTimeoutMs,
    keepAliveTimeout: o.keepAliveTimeoutMs ?? httpDefaults.keepAliveTimeoutMs,
  };
  const server = serve(app.h3, {
    port: o.port,
    hostname: o.host,
    silent: true,
    // We stop on our own signal handling (catintel serve), after the store work is done.
    gracefulShutdown: false,
    // Node checks the header/request deadlines on this interval (default 30 s, far too lax).
    node: { ...timeouts, connectionsCheckingInterval: Math.min(1000, timeouts.headersTimeout) },
  });
  await server.ready();
  // The stream's first live set: changes from here on are numbered and kept for Last-Event-ID resume.
  await app.changes.start();
  const node = server.node?.server as HttpServer | undefined;
  if (node) {
    Object.assign(node, timeouts); // older Node versions ignore some createServer options
    // Requests the parser refuses (431, 400, 408) get problem+json and the platform headers too.
    node.on(
      'clientError',
      app.clientErrorHandler({
        maxHeaderBytes: maxHeaderSize,
        headersTimeoutMs: timeouts.headersTimeout,
        requestTimeoutMs: timeouts.requestTimeout,
      }),
    );
  }
  const address = node?.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    app,
    url: `http://${host}:${port}`,
    async stop(graceMs = httpDefaults.shutdownGraceMs) {
      app.setDraining(true);
      const closed = server.close(); // stops accepting; idle keep-alive connections close now
      // Connections that finish during the drain (event streams ended by setDraining) close as they go idle.
      const idle = setInterval(() => node?.closeIdleConnections?.(), 50);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
      const outcome = await Promise.race([closed.then(() => 'closed' as const), late]);
      clearTimeout(timer);
      clearInterval(idle);
      if (outcome === 'late') await server.close(true);
    },
  };
}
