/** Hazard scores as text (`score point`, `events score`): one line per peril, then what else the answer says. */
import { keyValues, table } from './text.js';

interface PerilScore { peril: string; score: number; percentile?: number; score_components?: Record<string, unknown> }
interface ScoreBody { lat: number; lng: number; scenario: string; horizon: number | null; perils: PerilScore[]; event?: Record<string, unknown> }

export function isScoreBody(b: unknown): b is ScoreBody {
  return typeof b === 'object' && b !== null && Array.isArray((b as ScoreBody).perils) && typeof (b as ScoreBody).lat === 'number';
}

/** Climate shift of the score, shown only when a scenario other than the baseline was asked for. */
const deltaOf = (p: PerilScore) => (p.score_components?.climate_adjustment as { delta_score?: number } | undefined)?.delta_score;

export function scoreTable(b: ScoreBody): string {
  const lines: string[] = [];
  const e = b.event;
  if (e) lines.push(`${e.title}: ${e.event_type}, ${e.status}, id ${e.id}`);
  const climate = b.scenario === 'baseline' ? 'baseline climate' : `scenario ${b.scenario}, horizon ${b.horizon}`;
  lines.push(`Hazard scores (0-10) at ${b.lat}, ${b.lng}: ${climate}`);
  const adjusted = b.scenario !== 'baseline';
  const rows = b.perils.map((p) => [
    p.peril,
    p.score.toFixed(2),
    p.percentile ?? null,
    String(p.score_components?.confidence ?? '-'),
    ...(adjusted ? [signed(deltaOf(p))] : []),
  ]);
  lines.push(...table(['peril', 'score', 'percentile', 'confidence', ...(adjusted ? ['climate change'] : [])], rows, [, 'right', 'right', , 'right']).map((l) => `  ${l}`));
  // Anything else the answer carries (why a peril was chosen, ...) follows as key: value.
  const { lat, lng, scenario, horizon, perils, event, ...rest } = b;
  void lat, lng, scenario, horizon, perils, event;
  if (Object.keys(rest).length) lines.push(...keyValues(rest));
  lines.push('score_components (frequency, intensity, exposure, ...) and provenance: --json');
  return lines.join('\n') + '\n';
}

function signed(v: number | undefined): string {
  if (v === undefined || v === null) return '-';
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}
