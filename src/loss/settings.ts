/**
 * The parts of an Oasis analysis_settings.json that `catintel oasis run` reads: the event set and
 * occurrence id, the gul/il/ri/rl summaries and their ORD outputs, and top-level return periods. What
 * the engine cannot produce (oed_fields groupings, intermediate inuring priorities) is refused or
 * listed as skipped, never silently ignored.
 */
import fs from 'node:fs';
import type { UntypedJson, UntypedRecord } from '../lib/untyped-json.js';
import { CatintelError } from '../errors.js';

export interface SummarySetting {
  id: number;
  ordOutput: Record<string, boolean>;
}

export interface RunSettings {
  eventSet?: string;
  occurrenceId?: string;
  gul: SummarySetting[];
  il: SummarySetting[];
  /** Losses net of every reinsurance inuring level (ri_output). */
  ri: SummarySetting[];
  /** The losses each reinsurance inuring level takes (rl_output), one set of files per level. */
  rl: SummarySetting[];
  /** ri_inuring_priorities: net losses after intermediate levels, which are not computed (listed as skipped). */
  intermediatePriorities: number[];
  returnPeriods?: number[];
  /** number_of_samples: damage samples per event (0 = the mean rows only). */
  samples: number;
}

export const DEFAULT_ORD = {
  elt_moment: true,
  elt_sample: true,
  ept_mean_sample_oep: true,
  ept_mean_sample_aep: true,
  alt_period: true,
  return_period_file: true,
};

export function defaultSettings(): RunSettings {
  return {
    gul: [{ id: 1, ordOutput: DEFAULT_ORD }],
    il: [{ id: 1, ordOutput: DEFAULT_ORD }],
    ri: [],
    rl: [],
    intermediatePriorities: [],
    samples: 0,
  };
}

export function readSettings(file: string): RunSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CatintelError(
      'invalid_input',
      `--settings ${file}: not a readable JSON analysis_settings file (${(err as Error).message.split('\n')[0]})`,
    );
  }
  const s = raw as UntypedRecord;
  const summaries = (key: string, flag: string): SummarySetting[] => {
    if (s[flag] === false) return [];
    const list = Array.isArray(s[key]) ? s[key] : [];
    return list.map((x: UntypedJson, i: number) => {
      if (Array.isArray(x?.oed_fields) && x.oed_fields.length > 0) {
        throw new CatintelError(
          'invalid_input',
          `--settings ${file}: ${key}[${i}] groups by oed_fields (${x.oed_fields.join(', ')}); only summary sets over all risks (no oed_fields) are supported`,
        );
      }
      return { id: Number(x?.id ?? 1), ordOutput: { ...(x?.ord_output ?? {}) } };
    });
  };
  const rp = Array.isArray(s.return_periods) ? s.return_periods.map(Number) : undefined;
  const samples = Number(s.number_of_samples ?? s.model_default_samples ?? 0);
  if (!Number.isInteger(samples) || samples < 0 || samples > 100_000) {
    throw new CatintelError(
      'invalid_input',
      `--settings ${file}: number_of_samples ${String(s.number_of_samples)} must be a whole number from 0 to 100000`,
    );
  }
  return {
    eventSet: s.model_settings?.event_set,
    occurrenceId: s.model_settings?.event_occurrence_id,
    gul: summaries('gul_summaries', 'gul_output'),
    il: summaries('il_summaries', 'il_output'),
    // ri and rl are opt-in, as Oasis reads them: nothing unless the flag is true.
    ri: s.ri_output === true ? summaries('ri_summaries', 'ri_output') : [],
    rl: s.rl_output === true ? summaries('rl_summaries', 'rl_output') : [],
    intermediatePriorities: Array.isArray(s.ri_inuring_priorities) ? s.ri_inuring_priorities.map(Number) : [],
    returnPeriods: rp,
    samples,
  };
}
