/**
 * The EP curve (`portfolio ep-curve`, GET /portfolio/ep-curve) as an Arrow table: one row per return
 * period of the JSON's `curve` (the perspective asked for), with its names: ReturnPeriod int64,
 * ExceedanceProbability float64 and the four losses (OEPLossAmt, AEPLossAmt, OEPTVaRAmt, AEPTVaRAmt) as
 * float64 money, the currency (CurCd) in each money field's metadata. The answer's own figures
 * (PortfolioId, perspective, EPCalc, AALAmt, AALAnalyticAmt, CurCd, years, seed, samples, model_version)
 * are the schema's metadata. The ORD ept and psept tables stay `--format csv|parquet` (docs/ep-curves.md).
 */
import type { Table } from 'apache-arrow';
import { recordTable, type RecordColumn } from './record-table.js';

export const EP_CURVE_COLUMNS: RecordColumn[] = [
  { name: 'ReturnPeriod', kind: 'int' },
  { name: 'ExceedanceProbability', kind: 'float' },
  { name: 'OEPLossAmt', kind: 'money' },
  { name: 'AEPLossAmt', kind: 'money' },
  { name: 'OEPTVaRAmt', kind: 'money' },
  { name: 'AEPTVaRAmt', kind: 'money' },
];

/** The fields of the JSON answer the table is made from (src/handlers/portfolio-ep-curve.ts). */
export interface EpCurveAnswer {
  PortfolioId: string | null;
  input: string | null;
  CurCd: string | null;
  perspective: string;
  EPCalc: number;
  AALAmt: number;
  AALAnalyticAmt: number;
  years: number;
  seed: number;
  samples: number;
  model_version: string;
  curve: readonly object[];
}

export function isEpCurveAnswer(body: unknown): body is EpCurveAnswer {
  return (
    typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && Array.isArray((body as EpCurveAnswer).curve)
  );
}

export function epCurveTable(body: EpCurveAnswer): Table {
  return recordTable(EP_CURVE_COLUMNS, body.curve, body.CurCd, {
    PortfolioId: body.PortfolioId,
    input: body.input,
    perspective: body.perspective,
    EPCalc: body.EPCalc,
    AALAmt: body.AALAmt,
    AALAnalyticAmt: body.AALAnalyticAmt,
    CurCd: body.CurCd,
    years: body.years,
    seed: body.seed,
    samples: body.samples,
    model_version: body.model_version,
  });
}
