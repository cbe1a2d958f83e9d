/** Hazard scores as text (`score point`, `events score`): one line per peril, then what else the answer says. */
import { keyValues, table } from './text.js';

interface PerilScore {
  peril: string;
  score: number;
  percentile?: number;
  score_components?: Record<string, unknown>;
}
interface ScoreBody {
  lat: number;
  lng: number;
  scenario: string;
  horizon: number | null;
  perils: PerilScore[];
  event?: Record<string, unknown>;
}

export function isScoreBody(b: unknown): b is ScoreBody {
  return (
    typeof b === 'object' &&
    b !== null &&
    Array.isArray((b as ScoreBody).perils) &&
    typeof (b as ScoreBody).lat === 'number'
  );
}

/** Climate shift of the score, shown only when a scenario other than the baseline was asked for. */
const deltaOf = (p: PerilScore) =>
  (p.score_components?.climate_adjustment as { delta_score?: number } | undefined)?.delta_score;

export function scoreTable(b: ScoreBody): string {
  const lines: string[] = [];
  const e = b.event;
  if (e) lines.push(`${e.title}: ${e.event_type}, ${e.status}, id ${e.id}`);
  const climate = b.scenario === 'baseline' ? 'baseline climate' : `scenario ${b.scenario}, horizon ${b.horizon}`;
  lines.push(`Hazard scores (0-10) at ${b.lat}, ${b.lng}: ${climate}`);
  const adjusted = b.scenario !== 'baseline';
  const damage = b.perils.some((p) => damageRatioOf(p) !== undefined);
  const rows = b.perils.map((p) => [
    p.peril,
    p.score.toFixed(2),
    p.percentile ?? null,
    ...(damage ? [percent(damageRatioOf(p)), sourceOf(p)?.kind ?? '-'] : []),
    String(p.score_components?.confidence ?? '-'),
    ...(adjusted ? [signed(deltaOf(p))] : []),
  ]);
  const headers = [
    'peril',
    'score',
    'percentile',
    ...(damage ? ['annual damage', 'from'] : []),
    'confidence',
    ...(adjusted ? ['climate change'] : []),
  ];
  const align = headers.map((h) =>
    h === 'peril' || h === 'confidence' || h === 'from' ? undefined : ('right' as const),
  );
  lines.push(...table(headers, rows, align).map((l) => `  ${l}`));
  // Anything else the answer carries (why a peril was chosen, ...) follows as key: value.
  const { lat, lng, scenario, horizon, perils, event, ...rest } = b;
  if (Object.keys(rest).length) lines.push(...keyValues(rest));
  if (damage) {
    lines.push(
      'annual damage: expected annual damage ratio, % of building value per year (docs/scoring.md); from: the model package through the loss engine, or the hazard baseline',
    );
    const models = new Set(
      b.perils
        .map(sourceOf)
        .filter((x) => x?.kind === 'model')
        .map((x) => `${x!.model} package, ${x!.package_years} years, seed ${x!.package_seed}`),
    );
    for (const m of models)
      lines.push(
        `model: ${m} (reference building: ${b.perils.map(sourceOf).find((x) => x?.kind === 'model')!.reference_building})`,
      );
  }
  lines.push('score_components (frequency, intensity, exposure, ...) and provenance: --json');
  return lines.join('\n') + '\n';
}

/** The expected annual damage ratio (score_components.vulnerability), comparable across perils; null where the data has none. */
function damageRatioOf(p: PerilScore): number | null | undefined {
  return (p.score_components?.vulnerability as { expected_annual_damage_ratio?: number | null } | undefined)
    ?.expected_annual_damage_ratio;
}

interface DamageSource {
  kind: string;
  model?: string;
  package_years?: number;
  package_seed?: number;
  reference_building?: string;
}

/** Where the damage ratio came from (score_components.vulnerability.damage_ratio_source). */
function sourceOf(p: PerilScore): DamageSource | undefined {
  return (p.score_components?.vulnerability as { damage_ratio_source?: DamageSource } | undefined)?.damage_ratio_source;
}

/** A damage ratio as a percentage of building value per year, two significant digits. */
function percent(v: number | null | undefined): string {
  return v === null || v === undefined ? '-' : `${Number((v * 100).toPrecision(2))}%`;
}

function signed(v: number | undefined): string {
  if (v === undefined || v === null) return '-';
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}
