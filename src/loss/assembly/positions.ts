// AssemblyScript (see index.ts). The items laid out by areaperil, which every pass of an event reads:
// position p holds item pItem[p]; an areaperil's items are consecutive positions, in item order.

export let n: i32 = 0; // items
export let S: i32 = 0; // samples (0 without sampling)
export let pItem: usize = 0; // i32 per position

export function setupPositions(items: i32, samples: i32, item: usize): void {
  n = items;
  S = samples;
  pItem = item;
}
