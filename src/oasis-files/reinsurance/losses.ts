/**
 * Reinsurance losses from Oasis files: the RI_n folders of a directory run one after another on the
 * direct insured loss of each event (event_id, output_id, loss), as oasislmf's deterministic run
 * does; the result of the last is the loss net of all reinsurance (oasislmf's rils.csv). The losses
 * are computed by the financial module engine (src/loss/fm), so reinsurance and direct insurance
 * follow one set of rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import { FinancialModule } from '../../loss/fm/domain/compute.js';
import { buildStructure, type FmFiles } from '../../loss/fm/domain/structure.js';
import type { ReinsuranceLayerFiles } from './domain/types.js';
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
      if (r[c] === undefined || !Number.isFinite(v))
        throw new CatintelError(
          'invalid_input',
          `${path.basename(file)} row ${i + 2}: ${c} '${r[c] ?? ''}' is not a number`,
        );
      return v;
    }),
  );
}

/** The four FM files of one inuring layer, as held in memory or read back from RI_n/. */
export type ReinsuranceFm = Pick<ReinsuranceLayerFiles, 'programme' | 'profiles' | 'policytc' | 'xref'>;

/** The engine's view of one inuring layer's files (reinsurance profiles have no step terms). */
function engineFiles(fm: ReinsuranceFm): FmFiles {
  return {
    programme: {
      from: fm.programme.map((r) => r.fromAggId),
      level: fm.programme.map((r) => r.levelId),
      to: fm.programme.map((r) => r.toAggId),
    },
    policytc: {
      level: fm.policytc.map((r) => r.levelId),
      agg: fm.policytc.map((r) => r.aggId),
      layer: fm.policytc.map((r) => r.layerId),
      profile: fm.policytc.map((r) => r.profileId),
    },
    profiles: fm.profiles.map((p) => ({
      profileId: p.profileId,
      calcrule: p.calcruleId,
      deductible1: p.deductible1,
      deductible2: p.deductible2,
      deductible3: p.deductible3,
      attachment1: p.attachment1,
      limit1: p.limit1,
      share1: p.share1,
      share2: p.share2,
      share3: p.share3,
      stepId: 1,
      triggerStart: 0,
      triggerEnd: 0,
      payoutStart: 0,
      payoutEnd: 0,
      limit2: 0,
      scale1: 0,
      scale2: 0,
    })),
    stepped: false,
    xref: {
      output: fm.xref.map((r) => r.output),
      agg: fm.xref.map((r) => r.aggId),
      layer: fm.xref.map((r) => r.layerId),
    },
  };
}

/** Allocation rule 3, as oasislmf runs reinsurance: each inuring layer's loss is shared back to its items. */
const REINSURANCE_ALLOC_RULE = 3;

export function readReinsuranceFm(dir: string): ReinsuranceFm {
  return {
    programme: ints(path.join(dir, 'fm_programme.csv'), ['from_agg_id', 'level_id', 'to_agg_id']).map(
      ([fromAggId, levelId, toAggId]) => ({ fromAggId, levelId, toAggId }),
    ),
    profiles: ints(path.join(dir, 'fm_profile.csv'), [
      'profile_id',
      'calcrule_id',
      'deductible1',
      'deductible2',
      'deductible3',
      'attachment1',
      'limit1',
      'share1',
      'share2',
      'share3',
    ]).map(
      ([
        profileId,
        calcruleId,
        deductible1,
        deductible2,
        deductible3,
        attachment1,
        limit1,
        share1,
        share2,
        share3,
      ]) => ({
        profileId,
        calcruleId,
        deductible1,
        deductible2,
        deductible3,
        attachment1,
        limit1,
        share1,
        share2,
        share3,
      }),
    ),
    policytc: ints(path.join(dir, 'fm_policytc.csv'), ['level_id', 'agg_id', 'layer_id', 'profile_id']).map(
      ([levelId, aggId, layerId, profileId]) => ({ levelId, aggId, layerId, profileId }),
    ),
    xref: ints(path.join(dir, 'fm_xref.csv'), ['output', 'agg_id', 'layer_id']).map(([output, aggId, layerId]) => ({
      output,
      aggId,
      layerId,
    })),
  };
}

/** The RI_n folders of `dir`, in order, as ri_layers.json lists them. */
export function readReinsuranceLayers(dir: string): ReinsuranceFm[] {
  let count: number;
  try {
    count = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'ri_layers.json'), 'utf8'))).length;
  } catch {
    throw new CatintelError(
      'invalid_input',
      `ri_layers.json is missing or unreadable in ${path.basename(dir)}; write the reinsurance files again`,
    );
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
  const engines = layers.map((fm) => new FinancialModule(buildStructure(engineFiles(fm), REINSURANCE_ALLOC_RULE), 1));
  const results: OutputLoss[][] = layers.map(() => []);
  for (const eventId of [...byEvent.keys()].sort((a, b) => a - b)) {
    let current: [number, Float64Array][] = [...byEvent.get(eventId)!].map(([outputId, loss]) => [
      outputId,
      Float64Array.of(loss),
    ]);
    engines.forEach((engine, n) => {
      const net = engine.run(current, true).sort((a, b) => a.outputId - b.outputId);
      for (const { outputId, loss } of net) if (loss[0] !== 0) results[n].push({ eventId, outputId, loss: loss[0] });
      current = net.map((o) => [o.outputId, o.loss]);
    });
  }
  return results;
}
