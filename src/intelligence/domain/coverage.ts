/**
 * Where the embedded infrastructure data covers a query (GET /infrastructure `coverage`): an empty list
 * must not read as "none here" when the data simply has no layer for the area (schools outside Florida,
 * fire stations outside Oregon, EMS stations anywhere). Pure: the caller finds the states of the query area.
 */
import type { InfraKind, KindMeta } from '../infrastructure/format.js';

export interface KindCoverage {
  kind: InfraKind;
  /** yes: every state of the query area has this layer; partial: some do; no: none does. */
  covered: 'yes' | 'partial' | 'no';
  /** Where the layer has data: "national", or the USPS codes of the states it holds. */
  covered_areas: 'national' | string[];
  /** The states found under the query area. */
  query_states: string[];
  source: string;
  ingested_at: string | null;
  note: string;
}

export function coverageOf(
  kinds: readonly InfraKind[],
  metas: readonly KindMeta[],
  queryStates: readonly string[],
): KindCoverage[] {
  return kinds.map((kind) => {
    const m = metas.find((x) => x.kind === kind);
    const base = {
      kind,
      query_states: [...queryStates],
      source: m?.source ?? 'none',
      ingested_at: m?.ingested_at ?? null,
    };
    if (!m || m.scope === 'none')
      return { ...base, covered: 'no' as const, covered_areas: [], note: m?.note ?? `no ${kind} data` };
    if (m.scope === 'national')
      return { ...base, covered: 'yes' as const, covered_areas: 'national' as const, note: m.note };
    const have = queryStates.filter((s) => m.states.includes(s));
    const covered =
      queryStates.length > 0 && have.length === queryStates.length ? 'yes' : have.length > 0 ? 'partial' : 'no';
    const where = m.states.join(', ');
    const note =
      covered === 'yes'
        ? m.note
        : covered === 'partial'
          ? `${kind} data covers ${where} only; of the query area's states (${queryStates.join(', ')}) the others are not covered, so facilities there are missing, not absent`
          : `${kind} data covers ${where} only; ${queryStates.length ? `the query area (${queryStates.join(', ')})` : 'the query area (no US county under it)'} is not covered, so an empty list here means no data, not no ${kind.replace('_', ' ')}s`;
    return { ...base, covered, covered_areas: [...m.states], note };
  });
}
