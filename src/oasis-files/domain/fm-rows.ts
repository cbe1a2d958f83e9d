/**
 * The rows of an FM programme under construction, as columns: one row per item and policy layer (an
 * item split over several layers has one row in each). A million locations make several million rows,
 * so each attribute is a typed array rather than a field of an object per row.
 */

/** What the programme needs of each item, by item index (items in item-id order, as gulItems numbers them). */
export interface FmItems {
  count: number;
  itemId: Int32Array;
  locId: Int32Array;
  accId: Int32Array;
  riskId: Int32Array;
  buildingId: Int32Array;
  coverageType: Int32Array;
  /** Index of each item's peril in `perils`. */
  peril: Int32Array;
  /** The items' perils, in order of first appearance among the items. */
  perils: readonly string[];
  /**
   * The TIV of one coverage type (1-4 property, 7-15 cyber) of the item's location or cyber account,
   * per building; 0 for a type it has no value of (a cyber account has no buildings TIV).
   */
  locationTiv: (item: number, coverageType: number) => number;
}

/** No value: a text index (polNumber, fmPeril) that is null, or a row that found no terms. */
export const NONE = -1;

export class FmRows {
  count = 0;
  /** Item index. */
  item: Int32Array;
  layer: Int32Array;
  /** Policy number, as an index into the programme's texts (NONE: not yet given one). */
  pol: Int32Array;
  /** The node of the level below (the item id below the first level). */
  prev: Int32Array;
  /** Term group found at this level (-1 or -prev when none). */
  group: Int32Array;
  /** Peril list of the terms found, as an index into the programme's texts (NONE: no filter or no terms). */
  fmPeril: Int32Array;
  agg: Int32Array;
  profile: Int32Array;
  /** 1 when the terms found are in % of TIV or BI days and take the TIV under the node. */
  needTiv: Uint8Array;
  /** 1 when the row's item enters a node split from one below on its own. */
  rootStart: Uint8Array;
  aggTiv: Float64Array;
  /** The key, group and peril the row found its terms under (NaN: none). */
  join: Float64Array;

  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    this.item = new Int32Array(n);
    this.layer = new Int32Array(n);
    this.pol = new Int32Array(n);
    this.prev = new Int32Array(n);
    this.group = new Int32Array(n);
    this.fmPeril = new Int32Array(n);
    this.agg = new Int32Array(n);
    this.profile = new Int32Array(n);
    this.needTiv = new Uint8Array(n);
    this.rootStart = new Uint8Array(n);
    this.aggTiv = new Float64Array(n);
    this.join = new Float64Array(n);
  }

  /** One row per item, layer 1, profile 1 (pass-through), entering from the item itself. */
  static ofItems(items: FmItems): FmRows {
    const rows = new FmRows(items.count);
    for (let i = 0; i < items.count; i++) {
      rows.item[i] = i;
      rows.layer[i] = 1;
      rows.pol[i] = NONE;
      rows.prev[i] = items.itemId[i];
      rows.fmPeril[i] = NONE;
      rows.profile[i] = 1;
      rows.join[i] = NaN;
    }
    rows.count = items.count;
    return rows;
  }

  /** Appends a copy of row `i` of `from`; returns the new row's index. */
  append(from: FmRows, i: number): number {
    if (this.count === this.item.length) this.grow();
    const j = this.count++;
    this.item[j] = from.item[i];
    this.layer[j] = from.layer[i];
    this.pol[j] = from.pol[i];
    this.prev[j] = from.prev[i];
    this.group[j] = from.group[i];
    this.fmPeril[j] = from.fmPeril[i];
    this.agg[j] = from.agg[i];
    this.profile[j] = from.profile[i];
    this.needTiv[j] = from.needTiv[i];
    this.rootStart[j] = from.rootStart[i];
    this.aggTiv[j] = from.aggTiv[i];
    this.join[j] = from.join[i];
    return j;
  }

  /** Keeps the rows `keep` marks, in order. */
  compact(keep: Uint8Array): void {
    let j = 0;
    for (let i = 0; i < this.count; i++) {
      if (!keep[i]) continue;
      if (j !== i) this.moveRow(i, j);
      j++;
    }
    this.count = j;
  }

  private moveRow(i: number, j: number): void {
    this.item[j] = this.item[i];
    this.layer[j] = this.layer[i];
    this.pol[j] = this.pol[i];
    this.prev[j] = this.prev[i];
    this.group[j] = this.group[i];
    this.fmPeril[j] = this.fmPeril[i];
    this.agg[j] = this.agg[i];
    this.profile[j] = this.profile[i];
    this.needTiv[j] = this.needTiv[i];
    this.rootStart[j] = this.rootStart[i];
    this.aggTiv[j] = this.aggTiv[i];
    this.join[j] = this.join[i];
  }

  private grow(): void {
    const n = this.item.length * 2;
    const wider = <T extends Int32Array | Uint8Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.item = wider(this.item);
    this.layer = wider(this.layer);
    this.pol = wider(this.pol);
    this.prev = wider(this.prev);
    this.group = wider(this.group);
    this.fmPeril = wider(this.fmPeril);
    this.agg = wider(this.agg);
    this.profile = wider(this.profile);
    this.needTiv = wider(this.needTiv);
    this.rootStart = wider(this.rootStart);
    this.aggTiv = wider(this.aggTiv);
    this.join = wider(this.join);
  }
}

/** A growable list of fixed-width integer records (fm_programme's links, fm_policytc's rows). */
export class IntRecords {
  count = 0;
  data: Int32Array;

  constructor(
    readonly width: number,
    capacity = 1024,
  ) {
    this.data = new Int32Array(width * capacity);
  }

  /** Appends one record of three or four values (the fourth only when the width is 4). */
  push(a: number, b: number, c: number, d = 0): void {
    if ((this.count + 1) * this.width > this.data.length) {
      const wider = new Int32Array(this.data.length * 2);
      wider.set(this.data);
      this.data = wider;
    }
    const o = this.count * this.width;
    this.data[o] = a;
    this.data[o + 1] = b;
    this.data[o + 2] = c;
    if (this.width > 3) this.data[o + 3] = d;
    this.count++;
  }
}

/** Numbers texts (policy numbers, peril lists) so rows hold an index: null is NONE. */
export class TextIds {
  readonly texts: string[] = [];
  private readonly ids = new Map<string, number>();

  id(text: string | null): number {
    if (text === null) return NONE;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.texts.push(text);
      this.ids.set(text, id);
    }
    return id;
  }

  text(id: number): string | null {
    return id === NONE ? null : this.texts[id];
  }
}

/** Peril index of a join that is not filtered by peril (item perils are indexed 0..NO_PERIL-1). */
export const NO_PERIL = 63;

/**
 * Term groups number below this: 1-5 on a property book's levels, the cyber coverages 7-15 at the
 * policy coverage level of an account-only book.
 */
export const GROUP_SPAN = 16;

/**
 * A row joins the terms of its key (location, condition or account id), term group (below GROUP_SPAN)
 * and, at a level filtered by peril, its peril (NO_PERIL when not filtered): one exact number, so the
 * lookup done for every row at every level builds no text.
 */
export function joinIdOf(key: number, group: number, peril: number): number {
  return (key * GROUP_SPAN + group) * 64 + peril;
}

/** Node and item ids stay below 2^26 and layers below 2^10, so pairs of them key a Map as one exact number. */
export const ID_SPAN = 2 ** 26;
export const LAYER_SPAN = 2 ** 10;
