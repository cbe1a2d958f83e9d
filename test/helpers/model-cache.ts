/**
 * vitest global setup: the model package cache of the test run (`catintel model build`, src/models/package-cache),
 * under models/.test/cache in the project (gitignored), kept between runs like the test packages. Every
 * build of the run goes there, never to the cache of the person running the tests: the CLI processes
 * inherit CATINTEL_CACHE, and test/helpers/cli.ts hands it to the in-process CLI.
 *
 * What it saves: the README and docs/usage.md pages (test/readme-examples.test.ts) each build the same
 * 100-year hurricane package from a fresh copy of the project; the second waits for the first and copies
 * it, and a later run copies both while dist/, the data and the options are unchanged.
 */
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

export const TEST_MODEL_CACHE = path.join(REPO_ROOT, 'models', '.test', 'cache');

export default function setup(): void {
  process.env.CATINTEL_CACHE = TEST_MODEL_CACHE;
}
