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

export function problemOf(e: CatintelError, instance?: string): Problem {
  const p: Problem = {
    type: `https://catintel.dev/problems/${e.code.replace(/_/g, '-')}`,
    title: titleOf[e.code],
    status: e.status,
    detail: e.message,
    code: e.code,
  };
  if (instance) p.instance = instance;
  if (e.errors?.length) p.errors = e.errors;
  return p;
}
