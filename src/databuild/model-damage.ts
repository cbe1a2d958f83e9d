/**
 * Build the model damage table (src/domain/scoring/model-damage.ts) in data/model-damage/: the reference
 * building's expected annual damage ratio per cell of each model package (hurricane wind, earthquake),
 * computed through the loss engine (src/epcurve/cell-damage-ratios.ts) from the packages in a models folder,
 * gzip-compressed, with a manifest naming the packages. `node dist/scripts/build-model-damage.js` runs it; the
 * scores read the committed table through src/reference-data/model-damage.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import {
  encodeModelDamage,
  parseModelDamage,
  type ModelDamageGrid,
  type ModelDamageTable,
} from '../domain/scoring/model-damage.js';
import { MODEL_DAMAGE_FILE, MODEL_DAMAGE_MANIFEST } from '../reference-data/model-damage.js';

export interface BuildModelDamageOptions {
  modelsDir: string;
  outDir: string;
  perils?: readonly ('hurricane_wind' | 'earthquake')[];
  /** Only cells whose centre this accepts (tests); unset: every cell. */
  within?: (lat: number, lng: number) => boolean;
  builtWith?: string;
  log?: (message: string) => void;
}

export async function buildModelDamage(
  o: BuildModelDamageOptions,
): Promise<{ file: string; bytes: number; grids: ModelDamageGrid[] }> {
  const { cellDamageRatios, MODEL_DAMAGE_PERILS } = await import('../epcurve/cell-damage-ratios.js');
  const grids = new Map<string, ModelDamageGrid>();
  // A rebuild of some perils keeps the others' grids from the table already there (one package rebuilt, the other not).
  const existing = path.join(o.outDir, MODEL_DAMAGE_FILE);
  if (o.perils && fs.existsSync(existing)) {
    for (const [peril, g] of parseModelDamage(new Uint8Array(zlib.gunzipSync(fs.readFileSync(existing)))).grids)
      if (!o.perils.includes(peril as 'earthquake')) grids.set(peril, g);
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-model-damage-'));
  try {
    for (const peril of o.perils ?? MODEL_DAMAGE_PERILS) {
      grids.set(
        peril,
        await cellDamageRatios({ modelsDir: o.modelsDir, peril, workDir, within: o.within, progress: o.log }),
      );
    }
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const ordered = new Map(
    [...grids].sort(
      (a, b) => MODEL_DAMAGE_PERILS.indexOf(a[0] as 'earthquake') - MODEL_DAMAGE_PERILS.indexOf(b[0] as 'earthquake'),
    ),
  );
  const table: ModelDamageTable = {
    formatVersion: 1,
    built_with: o.builtWith ?? 'node dist/scripts/build-model-damage.js --models models',
    grids: ordered,
  };
  // Level 9 and no timestamp in the gzip header: the same package gives the same bytes.
  const gz = zlib.gzipSync(encodeModelDamage(table), { level: 9 });
  fs.mkdirSync(o.outDir, { recursive: true });
  const file = path.join(o.outDir, MODEL_DAMAGE_FILE);
  fs.writeFileSync(file, gz);
  const manifest = {
    file: MODEL_DAMAGE_FILE,
    bytes: gz.length,
    sha256: createHash('sha256').update(gz).digest('hex'),
    built_with: table.built_with,
    perils: [...grids.values()].map((g) => {
      const n = g.rows * g.cols;
      let computed = 0;
      for (let k = 0; k < n; k++) if (Number.isFinite(g.ratio[k])) computed++;
      return {
        peril: g.peril,
        grid: { south: g.south, west: g.west, deg: g.deg, rows: g.rows, cols: g.cols },
        cells_with_a_ratio: computed,
        package: g.package,
        reference_building: g.reference_building,
      };
    }),
  };
  fs.writeFileSync(path.join(o.outDir, MODEL_DAMAGE_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  return { file, bytes: gz.length, grids: [...grids.values()] };
}
