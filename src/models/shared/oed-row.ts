/**
 * An OED location row as the models' keys lookups read it, and its numeric fields. OED field names are
 * case-insensitive, so a field is found whatever its case in the file.
 */
export type OedRow = Record<string, string | number | null | undefined>;

/** The field's number, or undefined when it is absent, blank or not a number. */
export function numericField(row: OedRow, name: string): number | undefined {
  const lower = name.toLowerCase();
  // The keys lookup reads a dozen fields of each of a book's rows: compare lengths before lower-casing.
  for (const k in row) {
    if (!Object.hasOwn(row, k) || k.length !== lower.length || (k !== name && k.toLowerCase() !== lower)) continue;
    const v = row[k];
    if (v === null || v === undefined || v === '') return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
