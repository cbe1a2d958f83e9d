/** RFC 9457 problem details (CONTRACT §4). The same object is printed by the CLI with --json. */
import { CatintelError, titleOf } from '../errors.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: string;
  errors?: { field: string; message: string }[];
}

export const PROBLEM_TYPE_BASE = 'https://catintel.dev/problems/';

export function problemOf(e: CatintelError, instance?: string): Problem {
  const p: Problem = {
    type: `${PROBLEM_TYPE_BASE}${e.code.replace(/_/g, '-')}`,
    title: titleOf[e.code],
    status: e.status,
    detail: e.message,
    code: e.code,
  };
  if (instance) p.instance = instance;
  if (e.errors?.length) p.errors = e.errors;
  return p;
}

/**
 * 501 for contract endpoints not built yet. HTTP only (no CLI command exists for them), so it is not one
 * of the CLI's error codes.
 */
export function notImplementedProblem(method: string, path: string, instance: string): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}not-implemented`,
    title: 'Not implemented',
    status: 501,
    detail: `${method} ${path} is part of the API contract but not available in this version yet`,
    instance,
    code: 'not_implemented',
  };
}
