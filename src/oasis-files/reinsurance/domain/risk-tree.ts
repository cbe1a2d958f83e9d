/**
 * The tree one reinsurance inuring layer runs on, built from the direct insurance's outputs:
 *
 *   programme (1 node) <- risk nodes (one per risk at the treaty's RiskLevel)
 *                      <- filter nodes (one per PortNumber, AccNumber, PolNumber, LocGroup, LocNumber)
 *                      <- items (the direct insurance's outputs)
 *
 * Scopes open filter nodes (a risk outside every scope cedes nothing); the risk and programme nodes
 * carry the treaty terms. Nodes are numbered in the order of their first output once the outputs are
 * sorted by the risk level's key, as oasislmf numbers them.
 */
import type { RiskField, RiskLevel, RiskRow } from './types.js';
import { RISK_FIELDS } from './types.js';

/** The fields that identify one risk at each RiskLevel. */
export const RISK_LEVEL_FIELDS: Record<RiskLevel, readonly RiskField[]> = {
  SEL: ['PortNumber'],
  ACC: ['PortNumber', 'AccNumber'],
  POL: ['PortNumber', 'AccNumber', 'PolNumber'],
  LGR: ['LocGroup'],
  LOC: ['PortNumber', 'AccNumber', 'LocNumber'],
};

const SORT_FIELDS: Record<RiskLevel, readonly RiskField[]> = {
  SEL: ['PortNumber', 'AccNumber', 'PolNumber', 'LocNumber'],
  ACC: ['PortNumber', 'AccNumber', 'PolNumber', 'LocNumber'],
  POL: ['PortNumber', 'AccNumber', 'PolNumber', 'LocNumber'],
  LGR: ['LocGroup', 'PortNumber', 'AccNumber', 'PolNumber', 'LocNumber'],
  LOC: ['PortNumber', 'AccNumber', 'LocNumber', 'PolNumber'],
};

export interface FilterNode {
  aggId: number;
  riskAggId: number;
  /** The first output of this node: its scope fields and policy dates stand for the node. */
  first: RiskRow;
}

export interface RiskNode {
  aggId: number;
  first: RiskRow;
}

export interface RiskTree {
  riskLevel: RiskLevel;
  risks: RiskNode[];
  filters: FilterNode[];
  /** Outputs in tree order, each with the filter node it feeds. */
  items: { outputId: number; filterAggId: number }[];
}

const SEP = '\u0000';
const keyOf = (row: RiskRow, fields: readonly RiskField[]): string => fields.map((f) => row.fields[f]).join(SEP);

/** Code-unit order, the order oasislmf's sort gives these text fields. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function buildRiskTree(rows: readonly RiskRow[], riskLevel: RiskLevel): RiskTree {
  const sortFields = SORT_FIELDS[riskLevel];
  const sorted = rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      for (const f of sortFields) {
        const c = compareText(a.row.fields[f], b.row.fields[f]);
        if (c !== 0) return c;
      }
      return a.i - b.i;
    })
    .map((x) => x.row);

  const riskFields = RISK_LEVEL_FIELDS[riskLevel];
  const riskIds = new Map<string, number>();
  const risks: RiskNode[] = [];
  for (const row of sorted) {
    const k = keyOf(row, riskFields);
    if (!riskIds.has(k)) {
      riskIds.set(k, risks.length + 1);
      risks.push({ aggId: risks.length + 1, first: row });
    }
  }

  const filterIds = new Map<string, number>();
  const filters: FilterNode[] = [];
  const items: RiskTree['items'] = [];
  for (const row of sorted) {
    const k = keyOf(row, RISK_FIELDS);
    let id = filterIds.get(k);
    if (id === undefined) {
      id = filters.length + 1;
      filterIds.set(k, id);
      filters.push({ aggId: id, riskAggId: riskIds.get(keyOf(row, riskFields))!, first: row });
    }
    items.push({ outputId: row.outputId, filterAggId: id });
  }
  return { riskLevel, risks, filters, items };
}
