/**
 * The FM programme of a portfolio whose OED files carry no financial terms, as Oasis writes it: one
 * level, every item of an account summed into one node (numbered by first appearance in item order)
 * under the pass-through profile (calc rule 100), one layer, and one output per item.
 */
export interface PassThroughFm {
  /** Account node (agg_id at level 1) of each item. */
  accountAgg: Int32Array;
  accounts: number;
}

export function passThroughFm(itemAccount: Int32Array): PassThroughFm {
  const aggOf = new Map<number, number>();
  const accountAgg = new Int32Array(itemAccount.length);
  for (let i = 0; i < itemAccount.length; i++) {
    let a = aggOf.get(itemAccount[i]);
    if (a === undefined) {
      a = aggOf.size + 1;
      aggOf.set(itemAccount[i], a);
    }
    accountAgg[i] = a;
  }
  return { accountAgg, accounts: aggOf.size };
}

export const PASS_THROUGH_CALCRULE = 100;
