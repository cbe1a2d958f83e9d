/**
 * An OED location row as the models' keys lookups read it, and its numeric fields. OED field names are
 * case-insensitive, so a field is found whatever its case in the file.
 */
export type OedRow = Record<string, string | number | null | undefined>;

/** The field's number, or undefined when it is absent, blank or not a number. */
export function numericField(row: OedRow, name: string): number | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(row)) {
    if (k.toLowerCase() !== lower) continue;
    if (v === null || v === undefined || v === '') return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
