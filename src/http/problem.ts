/** RFC 9457 problem details (docs/contract.md#errors). The same object is printed by the CLI with --json. */
import { CatintelError, titleOf } from '../errors.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: string;
  errors?: { field: string; message: string }[];
  /** How many field problems were left out of `errors` (only when there were more than MAX_LISTED_ERRORS). */
  errors_omitted?: number;
}

export const PROBLEM_TYPE_BASE = 'https://catintel.dev/problems/';

/**
 * A body with 60,000 unknown fields must not get an 8.7 MB answer: the first problems are enough to fix
 * the request, and the count says how much more there is. The detail (which handlers build from the
 * same list) is cut at a problem boundary.
 */
export const MAX_LISTED_ERRORS = 100;
export const MAX_DETAIL_CHARS = 2000;

export function problemOf(e: CatintelError, instance?: string): Problem {
  const p: Problem = {
    type: `${PROBLEM_TYPE_BASE}${e.code.replace(/_/g, '-')}`,
    title: titleOf[e.code],
    status: e.status,
    detail: shortDetail(e.message),
    code: e.code,
  };
  if (instance) p.instance = instance;
  if (e.errors?.length) {
    p.errors = e.errors.slice(0, MAX_LISTED_ERRORS);
    if (e.errors.length > MAX_LISTED_ERRORS) p.errors_omitted = e.errors.length - MAX_LISTED_ERRORS;
  }
  return p;
}

/** "a: x; b: y; ..." past MAX_DETAIL_CHARS -> the problems that fit, then "; and N more". */
function shortDetail(detail: string): string {
  if (detail.length <= MAX_DETAIL_CHARS) return detail;
  const room = MAX_DETAIL_CHARS - 40;
  const cut = detail.lastIndexOf('; ', room);
  if (cut <= 0) return `${detail.slice(0, room)}…`;
  const rest = detail.slice(cut + 2).split('; ').length;
  return `${detail.slice(0, cut)}; and ${rest} more`;
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
