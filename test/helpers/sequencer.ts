/**
 * The order test files start in: within each project, the slowest files we know of first
 * (SLOWEST_FIRST in test/projects.ts), then the rest in vitest's own order.
 *
 * Two workers share the files of a group; a long file started last runs on alone while the other worker
 * waits for it. vitest orders by the durations of earlier runs it keeps under node_modules, which a fresh
 * clone does not have: it then starts larger files first, and the longest kill trials, short files, started
 * among the last. Projects stay together (a worker that changes project is started again, losing the modules
 * an in-process project shares).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOWEST_FIRST } from '../projects.js';

/** The rank of a file (relative to the root, with forward slashes) among the slowest; the rest after them. */
export function rankOf(file: string): number {
  const i = SLOWEST_FIRST.indexOf(file);
  return i < 0 ? SLOWEST_FIRST.length : i;
}

/** Specs ordered as vitest would, then the slowest known files moved to the front of their project (stable). */
export function slowestFirst<T>(ordered: T[], projectOf: (t: T) => string, fileOf: (t: T) => string): T[] {
  const projectOrder = [...new Set(ordered.map(projectOf))];
  const position = new Map(ordered.map((t, i) => [t, i]));
  return [...ordered].sort(
    (a, b) =>
      projectOrder.indexOf(projectOf(a)) - projectOrder.indexOf(projectOf(b)) ||
      rankOf(fileOf(a)) - rankOf(fileOf(b)) ||
      position.get(a)! - position.get(b)!,
  );
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const relative = (s: TestSpecification) =>
      s.moduleId
        .slice(root.length + 1)
        .split('\\')
        .join('/');
    return slowestFirst(await super.sort(files), (s) => s.project.name, relative);
  }
}
