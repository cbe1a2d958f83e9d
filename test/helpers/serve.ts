/** `catintel serve` as a real child process (the compiled CLI) on a free port, resolved once it listens. */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './kill.js';

/** The child, with the base URL it printed when it began listening. */
export type ServeChild = ChildProcess & { url: string };

export async function startServe(
  db: string,
  o: { env?: Record<string, string | undefined>; args?: string[]; cwd?: string } = {},
): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    [BIN, '--db', db, 'serve', '--port', '0', '--access-log', 'off', ...(o.args ?? [])],
    {
      cwd: o.cwd,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        const listening = / at (http:\/\/\S+)\/api\/v1 /.exec(out);
        if (listening) {
          (child as ServeChild).url = listening[1];
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    });
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return child as ServeChild;
}

/** Stops a server started by startServe and waits until it has let go of the store. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}
