/**
 * The `--queue` value (docs/scale-out.md): a PostgreSQL URL, checked before anything connects, and shown in
 * messages without its password. Apart from queue.ts so that parsing a command never loads pg-boss.
 */
import { invalidParameter } from '../errors.js';

/** Formats whose chunk parts assemble by putting files end to end (commit-parts.ts); the others are refused with --queue. */
export const QUEUE_FORMATS: readonly string[] = ['csv', 'json'];

/** The --queue value as a PostgreSQL URL, or a one-line refusal (exit code 2). */
export function queueUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalidParameter('queue', `"${raw}" is not a URL; give postgres://USER@HOST:PORT/DATABASE`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw invalidParameter(
      'queue',
      `"${shown(raw)}" is not a PostgreSQL URL (${u.protocol}); give postgres://USER@HOST:PORT/DATABASE`,
    );
  if (!u.hostname)
    throw invalidParameter('queue', `"${shown(raw)}" names no host; give postgres://USER@HOST:PORT/DATABASE`);
  return raw;
}

/** The URL without its password, for messages. */
export function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
