/**
 * The columns every exposure table shares, with the JSON's names: a ring's own fields (the first of each
 * ring row, as /events/{id}/rings names them) and the OED insured values of the locations it holds
 * (float64 money, the currency in the field metadata).
 */
import type { RecordColumn } from './record-table.js';

export const RING_FIELD_COLUMNS: RecordColumn[] = [
  { name: 'ring_id', kind: 'text' },
  { name: 'ordinal', kind: 'int' },
  { name: 'kind', kind: 'text' },
  { name: 'label', kind: 'text' },
  { name: 'threshold', kind: 'float' },
  { name: 'unit', kind: 'text' },
  { name: 'radius_km', kind: 'float' },
];

export const INSURED_VALUE_COLUMNS: RecordColumn[] = [
  'BldgInsuranceAmt',
  'ContentsInsuranceAmt',
  'BIInsuranceAmt',
  'OtherInsuranceAmt',
  'TotalInsuranceAmt',
].map((name): RecordColumn => ({ name, kind: 'money' }));
