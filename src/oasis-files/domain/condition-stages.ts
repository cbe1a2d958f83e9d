/**
 * Conditions (CondTag / CondNumber terms of the account file) as Oasis builds them: a condition is the
 * account rows of one account that share a CondTag, and a location falls under the condition whose
 * CondTag it names (blank is tag "0"). Where a location names several tags (one location written on
 * several rows), its conditions nest: the lower CondPriority sits inside the higher, so the condition
 * levels are built once per stage, a condition's stage being the longest chain of conditions nested
 * inside it on any location. A condition that no location names sits in the first stage: it makes no
 * node, but its terms are numbered into profiles as any other's.
 *
 * An exclusion (a row with CondClass 1) makes its layer exclusive: on that layer, the account's other
 * conditions (and its locations under none) are filtered out whole, by a deductible of 100% of the loss.
 *
 * Each stage reads, per condition (ordered by account, then tag as text), the condition's account rows
 * in file order, then one filler row without terms for each layer of the account the condition has no
 * row for, so the layers a condition leaves alone pass its losses through unchanged.
 */
import { CatintelError } from '../../errors.js';
import type { TermSource } from './level-terms.js';

export interface ConditionStage {
  /** The account rows (and fillers) of the stage's conditions, keyed by condition number. */
  source: TermSource;
  /** Condition number, at this stage, of each location id that falls under one of the stage's conditions. */
  conditionOfLocation: Map<number, number>;
}

export interface ConditionStages {
  stages: ConditionStage[];
  /**
   * The CondTag of each location under a condition of the last stage, when there are several stages
   * (Oasis's expected files report the account row of that condition; with one stage, the layer's first row).
   */
  lastTagOfLocation: Map<number, string>;
}

/** The location side: location id, account id and CondTag cell of each location row. */
export interface LocationTags {
  locId: Int32Array;
  accId: Int32Array;
  tag: readonly string[];
}

const DEFAULT_TAG = '0';
const DEFAULT_PERIL = 'AA1';
const tagOf = (cell: string | undefined) => (cell === undefined || cell.trim() === '' ? DEFAULT_TAG : cell.trim());

function fillerCell(column: string, p: { peril: string; excluded: boolean }): string {
  if (column === 'CondPeril') return p.peril;
  if (p.excluded && (column === 'CondDed6All' || column === 'CondDedType6All')) return '1';
  return '';
}

/** Null when no account row names a condition (every CondTag blank or "0"): the condition levels are then left out. */
export function conditionStages(accounts: TermSource, locations: LocationTags): ConditionStages | null {
  const tagCells = accounts.cols.get('CondTag');
  if (!tagCells || !accounts.cols.has('CondNumber')) return null;
  const accTag = tagCells.map(tagOf);
  if (!accTag.some((t) => t !== DEFAULT_TAG)) return null;
  const priorityCells = accounts.cols.get('CondPriority');
  const perilCells = accounts.cols.get('CondPeril');
  const id = (acc: number, tag: string) => `${acc}\u0000${tag}`;

  // Priority and peril of a condition: its first account row's (a blank or 0 priority is 1).
  const priority = new Map<string, number>();
  const peril = new Map<string, string>();
  const keyOrder: { acc: number; tag: string }[] = [];
  for (let r = 0; r < accounts.rows; r++) {
    const k = id(accounts.key[r], accTag[r]);
    if (priority.has(k)) continue;
    const cell = priorityCells ? priorityCells[r].trim() : '';
    const p = cell === '' ? 1 : Number(cell);
    if (Number.isNaN(p))
      throw new CatintelError(
        'invalid_input',
        `the account file row ${r + 2}: CondPriority "${cell}" is not a number; give each condition a whole-number priority`,
      );
    priority.set(k, p === 0 ? 1 : p);
    const pc = perilCells ? perilCells[r].trim() : '';
    peril.set(k, pc === '' ? DEFAULT_PERIL : pc);
    keyOrder.push({ acc: accounts.key[r], tag: accTag[r] });
  }

  // Each location's conditions, in the order its rows name them (a tag no account row has is refused).
  const tagsOfLocation = new Map<number, { acc: number; tag: string; priority: number }[]>();
  for (let r = 0; r < locations.locId.length; r++) {
    const tag = tagOf(locations.tag[r]);
    const acc = locations.accId[r];
    const k = id(acc, tag);
    if (tag !== DEFAULT_TAG && !priority.has(k)) {
      throw new CatintelError(
        'invalid_input',
        `the location file row ${r + 2}: CondTag ${tag} names no condition of its account in the account file; add the condition's rows to the account file or clear the tag`,
      );
    }
    const list = tagsOfLocation.get(locations.locId[r]) ?? [];
    if (list.some((c) => c.tag === tag)) continue;
    const p = priority.get(k) ?? 1;
    const clash = list.find((c) => c.priority === p);
    if (clash) {
      throw new CatintelError(
        'invalid_input',
        `the location file row ${r + 2}: CondTag ${tag} and CondTag ${clash.tag} of one location have the same CondPriority ${p}; give nested conditions different priorities`,
      );
    }
    list.push({ acc, tag, priority: p });
    tagsOfLocation.set(locations.locId[r], list);
    if (!priority.has(k)) keyOrder.push({ acc, tag });
  }

  // Stage of each condition: the longest chain of conditions nested inside it on any location.
  const stage = new Map<string, number>(keyOrder.map(({ acc, tag }) => [id(acc, tag), 1]));
  const edges: [string, string][] = [];
  for (const list of tagsOfLocation.values()) {
    const sorted = [...list].sort((a, b) => a.priority - b.priority);
    for (let i = 1; i < sorted.length; i++)
      edges.push([id(sorted[i - 1].acc, sorted[i - 1].tag), id(sorted[i].acc, sorted[i].tag)]);
  }
  for (let changed = edges.length > 0, pass = 0; changed && pass <= stage.size; pass++) {
    changed = false;
    for (const [inner, outer] of edges) {
      const s = stage.get(inner)! + 1;
      if (s > stage.get(outer)!) {
        stage.set(outer, s);
        changed = true;
      }
    }
  }

  // Layers of each account, in order, with the policy number of the layer's last row, and whether one
  // of the layer's rows is an exclusion (CondClass 1).
  const layersOf = new Map<number, Map<number, string | null>>();
  const classCells = accounts.cols.get('CondClass');
  const excluding = new Set<string>();
  for (let r = 0; r < accounts.rows; r++) {
    const layers = layersOf.get(accounts.key[r]) ?? new Map<number, string | null>();
    layers.set(accounts.layer[r], accounts.polNumber[r]);
    layersOf.set(accounts.key[r], layers);
    const c = classCells ? classCells[r].trim() : '';
    if (c !== '' && Number(c) === 1) excluding.add(`${accounts.key[r]}|${accounts.layer[r]}`);
  }
  const rowsOf = new Map<string, number[]>();
  for (let r = 0; r < accounts.rows; r++) {
    const k = id(accounts.key[r], accTag[r]);
    (rowsOf.get(k) ?? rowsOf.set(k, []).get(k)!).push(r);
  }

  const stageCount = Math.max(...stage.values());
  const sortedKeys = [...keyOrder].sort((a, b) => a.acc - b.acc || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const stages: ConditionStage[] = [];
  for (let s = 1; s <= stageCount; s++) {
    const keys = sortedKeys.filter((k) => stage.get(id(k.acc, k.tag)) === s);
    const numberOf = new Map(keys.map((k, i) => [id(k.acc, k.tag), i + 1]));
    const picks: {
      row: number | null;
      key: number;
      layer: number;
      pol: string | null;
      peril: string;
      excluded: boolean;
    }[] = [];
    for (const k of keys) {
      const kid = id(k.acc, k.tag);
      const rows = rowsOf.get(kid) ?? [];
      for (const r of rows)
        picks.push({
          row: r,
          key: numberOf.get(kid)!,
          layer: accounts.layer[r],
          pol: accounts.polNumber[r],
          peril: '',
          excluded: false,
        });
      const covered = new Set(rows.map((r) => accounts.layer[r]));
      for (const [layer, pol] of layersOf.get(k.acc) ?? []) {
        if (!covered.has(layer))
          picks.push({
            row: null,
            key: numberOf.get(kid)!,
            layer,
            pol,
            peril: peril.get(kid) ?? DEFAULT_PERIL,
            excluded: excluding.has(`${k.acc}|${layer}`),
          });
      }
    }
    const cols = new Map<string, string[]>();
    for (const [name, cells] of accounts.cols) {
      cols.set(
        name,
        picks.map((p) => (p.row === null ? fillerCell(name, p) : cells[p.row])),
      );
    }
    // On a layer with an exclusion, a condition that has no row there is filtered out whole: a deductible of 100% of the loss.
    for (const name of ['CondDed6All', 'CondDedType6All'])
      if (!cols.has(name))
        cols.set(
          name,
          picks.map((p) => (p.row === null ? fillerCell(name, p) : '')),
        );
    const conditionOfLocation = new Map<number, number>();
    for (const [locId, list] of tagsOfLocation) {
      for (const c of list) {
        const n = numberOf.get(id(c.acc, c.tag));
        if (n !== undefined) conditionOfLocation.set(locId, n);
      }
    }
    stages.push({
      source: {
        rows: picks.length,
        key: Int32Array.from(picks, (p) => p.key),
        layer: Int32Array.from(picks, (p) => p.layer),
        polNumber: picks.map((p) => p.pol),
        risks: new Float64Array(picks.length).fill(1),
        cols,
        file: 'account file',
      },
      conditionOfLocation,
    });
  }

  const lastTagOfLocation = new Map<number, string>();
  if (stageCount > 1) {
    for (const [locId, list] of tagsOfLocation) {
      for (const c of list) if (stage.get(id(c.acc, c.tag)) === stageCount) lastTagOfLocation.set(locId, c.tag);
    }
  }
  return { stages, lastTagOfLocation };
}
