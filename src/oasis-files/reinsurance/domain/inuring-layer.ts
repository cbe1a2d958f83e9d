/**
 * The FM files of one reinsurance inuring layer: the treaties of one InuringPriority at one RiskLevel,
 * applied together to the same input loss. Each treaty is a separate FM layer, except facultative
 * certificates, which share layers when they cover different risks (a second certificate on the same
 * risk opens a second layer). fmpy's net output of the last layer is the loss net of every treaty of
 * this inuring layer, so fm_xref points every output at it.
 */
import { CatintelError } from '../../../errors.js';
import { buildRiskTree, RISK_LEVEL_FIELDS, type FilterNode, type RiskTree } from './risk-tree.js';
import {
  BASE_PROFILES,
  EXACT_MATCH_TYPES,
  NO_LOSS_PROFILE_ID,
  PASSTHROUGH_PROFILE_ID,
  TYPE_ORDER,
  profileOf,
  termsAt,
  type Contract,
  type TermLevel,
} from './treaty-terms.js';
import {
  EXTRA_SCOPE_FIELDS,
  RISK_FIELDS,
  type ProfileRow,
  type ReinsuranceLayerFiles,
  type RiskLevel,
  type RiskRow,
  type Scope,
  type ScopeField,
  type Treaty,
} from './types.js';

/** Fields a scope row must fill (in) or leave empty (out) for a FAC or surplus treaty at each level. */
const EXACT_SCOPE_RULES: Partial<Record<RiskLevel, { in: ScopeField[]; out: ScopeField[] }>> = {
  ACC: { in: ['AccNumber'], out: ['PolNumber', 'LocNumber'] },
  POL: { in: ['AccNumber', 'PolNumber'], out: ['LocNumber'] },
  LOC: { in: ['AccNumber', 'LocNumber'], out: [] },
  LGR: { in: ['LocGroup'], out: [] },
};

const SCOPE_FIELDS: readonly ScopeField[] = [...RISK_FIELDS, ...EXTRA_SCOPE_FIELDS];

export interface InuringLayerInput {
  inuringPriority: number;
  riskLevel: RiskLevel;
  /** The treaties of this priority and level, in ri_info order. */
  treaties: Treaty[];
  scopes: Scope[];
  rows: RiskRow[];
  /** The direct insurance's fm_xref outputs, in file order. */
  directOutputs: number[];
}

export function buildInuringLayer(input: InuringLayerInput): ReinsuranceLayerFiles {
  const { riskLevel } = input;
  const contracts = joinContracts(input.treaties, input.scopes, riskLevel);
  const tree = buildRiskTree(input.rows, riskLevel);
  const layerCount = contracts.reduce((m, c) => Math.max(m, c.layerId), 0);

  // Per layer, the profile of each node: filter and risk nodes start closed, the programme node open.
  const programmeProfile = new Array<number>(layerCount + 1).fill(PASSTHROUGH_PROFILE_ID);
  const riskProfile = Array.from({ length: layerCount + 1 }, () =>
    new Array<number>(tree.risks.length + 1).fill(NO_LOSS_PROFILE_ID),
  );
  const filterProfile = Array.from({ length: layerCount + 1 }, () =>
    new Array<number>(tree.filters.length + 1).fill(NO_LOSS_PROFILE_ID),
  );
  const profiles: ProfileRow[] = BASE_PROFILES.map((p) => ({ ...p }));

  for (const level of ['risk', 'programme'] as TermLevel[]) {
    for (const type of TYPE_ORDER) {
      const ofType = contracts.filter((c) => c.treaty.type === type);
      if (ofType.length === 0) continue;
      const profileOfContract = assignProfiles(ofType, type, level, profiles);
      if (level === 'risk') {
        openScopedFilters(tree, ofType, type, riskLevel, filterProfile);
        assignRiskProfiles(tree, ofType, profileOfContract, type, riskLevel, riskProfile);
      } else {
        ofType.forEach((c, i) => (programmeProfile[c.layerId] = profileOfContract[i]));
      }
    }
  }

  const programme: ReinsuranceLayerFiles['programme'] = [
    ...tree.risks.map((r) => ({ fromAggId: r.aggId, levelId: 3, toAggId: 1 })),
    ...tree.filters.map((f) => ({ fromAggId: f.aggId, levelId: 2, toAggId: f.riskAggId })),
    ...tree.items.map((it) => ({ fromAggId: it.outputId, levelId: 1, toAggId: it.filterAggId })),
  ];
  const policytc: ReinsuranceLayerFiles['policytc'] = [];
  for (let layer = 1; layer <= layerCount; layer++) {
    policytc.push({ levelId: 3, aggId: 1, layerId: layer, profileId: programmeProfile[layer] });
    for (const r of tree.risks)
      policytc.push({ levelId: 2, aggId: r.aggId, layerId: layer, profileId: riskProfile[layer][r.aggId] });
    for (const f of tree.filters)
      policytc.push({ levelId: 1, aggId: f.aggId, layerId: layer, profileId: filterProfile[layer][f.aggId] });
  }
  profiles.sort((a, b) => a.profileId - b.profileId);
  return {
    inuringPriority: input.inuringPriority,
    riskLevel,
    programme,
    profiles,
    policytc,
    xref: input.directOutputs.map((output, i) => ({ output, aggId: i + 1, layerId: layerCount })),
  };
}

/**
 * Each treaty with each of its scope rows, with its FM layer: facultative certificates take the first
 * layer free on their risk, every other treaty a layer of its own after them (numbered in ri_info order,
 * whether or not it has scope rows).
 */
function joinContracts(treaties: Treaty[], scopes: Scope[], riskLevel: RiskLevel): Contract[] {
  const scopesOf = new Map<string, Scope[]>();
  for (const s of scopes) scopesOf.set(s.reinsNumber, [...(scopesOf.get(s.reinsNumber) ?? []), s]);
  const contracts: Contract[] = [];
  for (const treaty of treaties)
    for (const scope of scopesOf.get(treaty.reinsNumber) ?? []) contracts.push({ treaty, scope, layerId: 0 });

  for (const c of contracts) {
    const rule = EXACT_SCOPE_RULES[riskLevel];
    if (!EXACT_MATCH_TYPES.has(c.treaty.type) || !rule) continue;
    const missing = rule.in.filter((f) => c.scope.fields[f] === '');
    const extra = rule.out.filter((f) => c.scope.fields[f] !== '');
    if (missing.length || extra.length) {
      const what = [
        missing.length ? `fill ${missing.join(' and ')}` : '',
        extra.length ? `leave ${extra.join(' and ')} empty` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      throw new CatintelError(
        'invalid_input',
        `ri_scope.csv row ${c.scope.row}: ReinsNumber ${c.treaty.reinsNumber} is a ${c.treaty.type} treaty at RiskLevel ${riskLevel}, whose scope rows must ${what}; fix the scope row or the treaty's RiskLevel`,
      );
    }
  }

  const riskFields = RISK_LEVEL_FIELDS[riskLevel];
  const facCount = new Map<string, number>();
  for (const c of contracts) {
    if (c.treaty.type !== 'FAC') continue;
    const k = riskFields.map((f) => c.scope.fields[f]).join('\u0000');
    const n = (facCount.get(k) ?? 0) + 1;
    facCount.set(k, n);
    c.layerId = n;
  }
  const facLayers = contracts.reduce((m, c) => Math.max(m, c.layerId), 0);
  const treatyLayer = new Map<Treaty, number>();
  treaties.filter((t) => t.type !== 'FAC').forEach((t, i) => treatyLayer.set(t, facLayers + i + 1));
  for (const c of contracts) if (c.treaty.type !== 'FAC') c.layerId = treatyLayer.get(c.treaty)!;
  return contracts;
}

/** One profile per distinct set of terms, numbered after the profiles already made, in first-use order. */
function assignProfiles(
  contracts: Contract[],
  type: Contract['treaty']['type'],
  level: TermLevel,
  profiles: ProfileRow[],
): number[] {
  const firstId = profiles.reduce((m, p) => Math.max(m, p.profileId), 0) + 1;
  const idOfKey = new Map<string, number>();
  return contracts.map((c) => {
    const t = termsAt(type, level, c);
    if (!t) return PASSTHROUGH_PROFILE_ID;
    const k = t.key.join(',');
    let id = idOfKey.get(k);
    if (id === undefined) {
      id = firstId + idOfKey.size;
      idOfKey.set(k, id);
      profiles.push(profileOf(id, t.terms));
    }
    return id;
  });
}

/**
 * Opens (pass-through) the filter nodes a scope row selects: every scope field the row fills must equal
 * the node's; FAC and surplus treaties must also name the node's risk exactly. A risks-attaching treaty
 * selects only policies that incept within its dates.
 */
function openScopedFilters(
  tree: RiskTree,
  contracts: Contract[],
  type: Contract['treaty']['type'],
  riskLevel: RiskLevel,
  filterProfile: number[][],
): void {
  const exactFields = EXACT_MATCH_TYPES.has(type) ? RISK_LEVEL_FIELDS[riskLevel] : [];
  const index = new FilterIndex(tree);
  for (const c of contracts) {
    const s = c.scope.fields;
    const checked = SCOPE_FIELDS.filter((f) => !exactFields.includes(f as never) && s[f] !== '');
    for (const node of index.candidates(s, exactFields)) {
      const n = node.first.fields;
      if (!exactFields.every((f) => n[f] === s[f])) continue;
      if (!checked.every((f) => n[f] === s[f])) continue;
      if (c.treaty.attachmentBasis === 'RA' && !attachesRisk(c.treaty, node.first)) continue;
      filterProfile[c.layerId][node.aggId] = PASSTHROUGH_PROFILE_ID;
    }
  }
}

/** Filter nodes by the value of one field, so a scope row naming a location or account looks only at its own nodes. */
class FilterIndex {
  private readonly byField = new Map<ScopeField, Map<string, FilterNode[]>>();
  constructor(private readonly tree: RiskTree) {}

  /** The nodes that can match `scope`: those sharing its most selective filled field, or all. */
  candidates(scope: Record<ScopeField, string>, exactFields: readonly ScopeField[]): readonly FilterNode[] {
    const field = (['LocNumber', 'PolNumber', 'AccNumber', 'LocGroup', 'PortNumber'] as const).find(
      (f) => scope[f] !== '' || exactFields.includes(f),
    );
    if (!field) return this.tree.filters;
    let byValue = this.byField.get(field);
    if (!byValue) {
      byValue = new Map();
      for (const node of this.tree.filters) {
        const v = node.first.fields[field];
        const list = byValue.get(v);
        if (list) list.push(node);
        else byValue.set(v, [node]);
      }
      this.byField.set(field, byValue);
    }
    return byValue.get(scope[field]) ?? [];
  }
}

function attachesRisk(t: Treaty, row: RiskRow): boolean {
  if (t.inceptionDate === '' || t.expiryDate === '') {
    throw new CatintelError(
      'invalid_input',
      `ri_info.csv row ${t.row}: ReinsNumber ${t.reinsNumber} has AttachmentBasis RA but no ReinsInceptionDate or ReinsExpiryDate; risks attaching needs both dates`,
    );
  }
  if (row.polInceptionDate === '') {
    throw new CatintelError(
      'invalid_input',
      `account file: PolNumber ${row.fields.PolNumber} of AccNumber ${row.fields.AccNumber} (PortNumber ${row.fields.PortNumber}) has no PolInceptionDate, which ReinsNumber ${t.reinsNumber} (AttachmentBasis RA) needs; add the date or use AttachmentBasis LO`,
    );
  }
  return t.inceptionDate <= row.polInceptionDate && row.polInceptionDate <= t.expiryDate;
}

/**
 * Puts each treaty's risk terms on the risk nodes its scope names. A treaty other than FAC and surplus
 * also reaches the risks below a broader scope row: a LOC treaty scoped to an account applies to every
 * location of that account (the scope's filter nodes still decide which of them cede).
 */
function assignRiskProfiles(
  tree: RiskTree,
  contracts: Contract[],
  profileOfContract: number[],
  type: Contract['treaty']['type'],
  riskLevel: RiskLevel,
  riskProfile: number[][],
): void {
  const fields = [...RISK_LEVEL_FIELDS[riskLevel]];
  let active = contracts.map((c, i) => ({ c, profile: profileOfContract[i] }));
  while (active.length > 0) {
    const eligible = active.filter(({ c }) => fields.every((f) => c.scope.fields[f] !== ''));
    // Later scope rows win where two name the same risk in the same layer.
    const byKey = new Map<string, { c: Contract; profile: number }[]>();
    for (const e of eligible) {
      const k = fields.map((f) => e.c.scope.fields[f]).join('\u0000');
      byKey.set(k, [...(byKey.get(k) ?? []), e]);
    }
    for (const node of tree.risks) {
      for (const { c, profile } of byKey.get(fields.map((f) => node.first.fields[f]).join('\u0000')) ?? [])
        riskProfile[c.layerId][node.aggId] = profile;
    }
    if (fields.length === 0 || EXACT_MATCH_TYPES.has(type)) break;
    const dropped = fields.pop()!;
    active = active.filter(({ c }) => c.scope.fields[dropped] === '');
  }
}
