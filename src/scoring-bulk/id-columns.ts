/**
 * Which input columns identify a row in the outputs (scores.csv / .ndjson / .parquet, errors.csv): the OED
 * key (PortNumber, AccNumber, LocNumber) when all three are there, else the first column that looks like
 * an id (id, *_id, *Id, LocNumber, location, name), else none (the row number still identifies it).
 */
const ID_NAME = /^(id|.+[_ -]id|.+[a-z]Id|locnumber|location|name)$/;

export function idColumns(columns: string[]): number[] {
  const lower = columns.map((c) => c.toLowerCase());
  const oed = ['portnumber', 'accnumber', 'locnumber'].map((c) => lower.indexOf(c));
  if (oed.every((i) => i >= 0)) return oed;
  const one = columns.findIndex((c) => ID_NAME.test(c) || ID_NAME.test(c.toLowerCase()));
  return one >= 0 ? [one] : [];
}
