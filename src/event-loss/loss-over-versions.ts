/**
 * A portfolio's live loss band at each stored product version of an event (docs/event-loss.md "Over the
 * advisories"): every version the store kept (each ingest that changed the hurricane or earthquake,
 * src/store/event-history.ts) runs through eventLossOf as GET /portfolio/event-loss runs the event as it is
 * now, with the same members, samples and seed, so the band over the advisories shows how the number moved.
 * Optionally drawn (band-chart.ts) as SVG or PNG.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import { CatintelError } from '../errors.js';
import type { PortfolioLocation } from '../portfolios/read.js';
import { listEventVersions, readEventVersion } from '../store/event-history.js';
import type { EventRow } from '../store/events-read.js';
import type { FootprintSource } from './event-footprints.js';
import { eventLossOf, type BandBody, type EventLossBody } from './portfolio-loss.js';

export interface VersionLoss {
  version: number;
  stored_at: string;
  product_version: string;
  /** The product's own time: a storm's latest fix or NHC advisory, a ShakeMap's processing, an origin's update. */
  advisory_time: string;
  footprint: FootprintSource;
  TIVInFootprintAmt: number;
  NumLocationsInFootprint: number;
  gul: BandBody & { ObservedSoFarLossAmt: number | null };
  il: BandBody & { ObservedSoFarLossAmt: number | null };
}

export interface LossOverVersionsBody extends Provenance {
  PortfolioId: string;
  event: EventLossBody['event'];
  CurCd: string | null;
  NumLocations: number;
  TotalInsuranceAmt: number;
  members: number;
  samples: number;
  seed: number;
  model_version: string;
  versions: VersionLoss[];
  as_of: string;
  method: string;
  /** The picture, when --plot asked for one. */
  written?: { file: string; format: 'svg' | 'png'; bytes: number };
}

export interface LossOverVersionsInput {
  portfolioId: string;
  locations: readonly PortfolioLocation[];
  row: EventRow;
  members: number;
  samples: number;
  seed: number;
  modelsDir?: string;
  plot?: string;
}

const bandOf = ({ by_peril: _, ...b }: EventLossBody['gul']) => b;

export async function lossOverVersions(
  ctx: Context,
  input: LossOverVersionsInput,
): Promise<{ body: LossOverVersionsBody; notes: string[] }> {
  const { row } = input;
  const listed = await listEventVersions(ctx.db, row.id, ctx.clock().toISOString());
  if (listed.length === 0)
    throw new CatintelError(
      'not_found',
      `event ${row.slug} has no stored version: each ingest that changes a hurricane or an earthquake keeps one (replay a b-deck with \`catintel --as-of T ingest nhc --from FILE\` at each advisory time)`,
    );
  const versions: VersionLoss[] = [];
  const notes = new Set<string>();
  let last: EventLossBody | undefined;
  for (const [i, v] of listed.entries()) {
    ctx.progress({
      task: 'loss over versions',
      done: i,
      total: listed.length,
      unit: 'versions',
      message: v.product_version,
    });
    const stored = (await readEventVersion(ctx.db, row.id, v.version))!;
    const r = await eventLossOf(
      { ...ctx, progress: () => {} },
      {
        portfolioId: input.portfolioId,
        locations: input.locations,
        row: stored.event,
        observations: stored.observations,
        at: stored.stored_at, // the ShakeMap grid stored with this version
        members: input.members,
        samples: input.samples,
        seed: input.seed,
        modelsDir: input.modelsDir,
      },
    );
    for (const n of r.notes) notes.add(n);
    last = r.body;
    versions.push({
      version: v.version,
      stored_at: v.stored_at,
      product_version: v.product_version,
      advisory_time: r.body.footprint.issued_at ?? v.stored_at,
      footprint: r.body.footprint,
      TIVInFootprintAmt: r.body.TIVInFootprintAmt,
      NumLocationsInFootprint: r.body.NumLocationsInFootprint,
      gul: bandOf(r.body.gul),
      il: bandOf(r.body.il),
    });
  }
  const body: LossOverVersionsBody = {
    PortfolioId: input.portfolioId,
    ...provenanceOf(row),
    event: last!.event,
    CurCd: last!.CurCd,
    NumLocations: last!.NumLocations,
    TotalInsuranceAmt: last!.TotalInsuranceAmt,
    members: input.members,
    samples: input.samples,
    seed: input.seed,
    model_version: last!.model_version,
    versions,
    as_of: ctx.clock().toISOString(),
    method: `each stored version of the event (${versions.length}) through the live loss of GET /portfolio/event-loss with the same members, samples and seed: ${last!.method}`,
  };
  if (input.plot !== undefined) body.written = await drawBand(body, input.plot);
  return { body, notes: [...notes] };
}

async function drawBand(body: LossOverVersionsBody, file: string): Promise<LossOverVersionsBody['written']> {
  const { bandChartSvg, bandChartPng } = await import('./band-chart.js');
  const format = file.toLowerCase().endsWith('.png') ? 'png' : 'svg';
  const first = body.versions[0];
  const c = {
    title: `Live portfolio loss from ${body.event.title}, at each of its ${body.versions.length} stored versions`,
    subtitle: [
      `ground-up loss: mean (line and points), P50 (dashed), P10 to P90 (shaded) at each version's advisory time`,
      `${first.footprint.product}; ${body.members} members x ${body.samples} damage samples, seed ${body.seed}; ${body.model_version}`,
      `${body.NumLocations.toLocaleString('en-US')} locations, TIV ${body.TotalInsuranceAmt.toLocaleString('en-US')} ${body.CurCd ?? ''}`.trim(),
    ],
    currency: body.CurCd ?? 'mixed currencies',
    points: body.versions.map((v) => ({
      version: v.version,
      at: v.advisory_time,
      product_version: v.product_version,
      mean: v.gul.MeanLossAmt,
      p10: v.gul.P10LossAmt,
      p50: v.gul.P50LossAmt,
      p90: v.gul.P90LossAmt,
    })),
  };
  const payload = format === 'svg' ? await bandChartSvg(c) : await bandChartPng(c);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, payload);
  await fs.promises.rename(tmp, file);
  return { file, format, bytes: Buffer.byteLength(payload) };
}
