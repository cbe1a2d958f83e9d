/**
 * Reinsurance losses from Oasis files: the RI_n folders of a directory run one after another on the
 * direct insured loss of each event (event_id, output_id, loss), as oasislmf's deterministic run
 * does; the result of the last is the loss net of all reinsurance (oasislmf's rils.csv).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import { netLossOfEvent, planReinsuranceFm, type ReinsuranceFm } from './domain/net-loss.js';
import { readCsvRecords } from './oed-csv.js';

export interface OutputLoss {
  eventId: number;
  outputId: number;
  loss: number;
}

function ints(file: string, columns: string[]): number[][] {
  return readCsvRecords(file, 'Oasis file').map((r, i) =>
    columns.map((c) => {
      const v = Number(r[c]);
      if (r[c] === undefined || !Number.isFinite(v)) throw new CatintelError('invalid_input', `${path.basename(file)} row ${i + 2}: ${c} '${r[c] ?? ''}' is not a number`);
      return v;
    }),
  );
}

export function readReinsuranceFm(dir: string): ReinsuranceFm {
  return {
    programme: ints(path.join(dir, 'fm_programme.csv'), ['from_agg_id', 'level_id', 'to_agg_id']).map(([fromAggId, levelId, toAggId]) => ({ fromAggId, levelId, toAggId })),
    profiles: ints(path.join(dir, 'fm_profile.csv'), ['profile_id', 'calcrule_id', 'deductible1', 'deductible2', 'deductible3', 'attachment1', 'limit1', 'share1', 'share2', 'share3']).map(
      ([profileId, calcruleId, deductible1, deductible2, deductible3, attachment1, limit1, share1, share2, share3]) => ({ profileId, calcruleId, deductible1, deductible2, deductible3, attachment1, limit1, share1, share2, share3 }),
    ),
    policytc: ints(path.join(dir, 'fm_policytc.csv'), ['level_id', 'agg_id', 'layer_id', 'profile_id']).map(([levelId, aggId, layerId, profileId]) => ({ levelId, aggId, layerId, profileId })),
    xref: ints(path.join(dir, 'fm_xref.csv'), ['output', 'agg_id', 'layer_id']).map(([output, aggId, layerId]) => ({ output, aggId, layerId })),
  };
}

/** The RI_n folders of `dir`, in order, as ri_layers.json lists them. */
export function readReinsuranceLayers(dir: string): ReinsuranceFm[] {
  let count: number;
  try {
    count = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'ri_layers.json'), 'utf8'))).length;
  } catch {
    throw new CatintelError('invalid_input', `ri_layers.json is missing or unreadable in ${path.basename(dir)}; write the reinsurance files again`);
  }
  return Array.from({ length: count }, (_, i) => readReinsuranceFm(path.join(dir, `RI_${i + 1}`)));
}

/**
 * The loss of each (event, output) after every inuring layer: result[n] is the net of RI_(n+1). Rows
 * with no loss are left out, as oasislmf leaves them out of rils.csv.
 */
export function reinsuranceLosses(layers: readonly ReinsuranceFm[], insured: readonly OutputLoss[]): OutputLoss[][] {
  const byEvent = new Map<number, Map<number, number>>();
  for (const r of insured) {
    const m = byEvent.get(r.eventId) ?? new Map<number, number>();
    m.set(r.outputId, (m.get(r.outputId) ?? 0) + r.loss);
    byEvent.set(r.eventId, m);
  }
  const plans = layers.map((fm) => planReinsuranceFm(fm));
  const results: OutputLoss[][] = layers.map(() => []);
  for (const eventId of [...byEvent.keys()].sort((a, b) => a - b)) {
    let current: ReadonlyMap<number, number> = byEvent.get(eventId)!;
    layers.forEach((fm, n) => {
      const net = netLossOfEvent(fm, current, plans[n]);
      for (const outputId of [...net.keys()].sort((a, b) => a - b)) {
        const loss = net.get(outputId)!;
        if (loss !== 0) results[n].push({ eventId, outputId, loss });
      }
      current = net;
    });
  }
  return results;
}
