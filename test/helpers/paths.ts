/** Where tests find the project and the shared real data (../shared/data beside the project). */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_DATA = process.env.CATINTEL_SHARED_DATA ?? path.resolve(REPO_ROOT, '../shared/data');
export const FIXTURES = path.join(REPO_ROOT, 'fixtures');

export function sharedData(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}
