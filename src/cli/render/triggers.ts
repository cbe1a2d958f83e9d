/**
 * Parametric triggers as text: a table of triggers (list), one trigger with its receipts (history), the
 * evaluation round (what was added, what fired), verify's verdict and the unread notifications. `--json`
 * prints the handlers' JSON instead.
 */
import { table, type Cell } from './text.js';
import type { UntypedRecord } from '../../lib/untyped-json.js';

type T = UntypedRecord;
const R = 'right' as const;
const L = 'left' as const;

/** "wind_speed_kt >= 100 kt" / "central_pressure_mb <= 950 mb": the condition the trigger fires on. */
function condition(t: T): string {
  const unit: Record<string, string> = {
    wind_speed_kt: 'kt',
    storm_surge_ft: 'ft',
    magnitude: 'Mw',
    gauge_stage_ft: 'ft',
    industry_loss_usd: 'USD',
    central_pressure_mb: 'mb',
  };
  return `${t.threshold_type} ${t.threshold_type === 'central_pressure_mb' ? '<=' : '>='} ${t.threshold_value} ${unit[t.threshold_type] ?? ''}`.trim();
}

const value = (v: number | null, unit: string): Cell => (v === null ? null : `${v} ${unit}`);
const time = (s: string | null): Cell => (s ? s.slice(0, 16).replace('T', ' ') : null);

export function triggersTable(b: T): string {
  if (b.triggers.length === 0) return `No active triggers in account ${b.account}.\n`;
  const rows = b.triggers.map((t: T) => [
    t.id,
    t.name,
    t.peril,
    condition(t),
    `${t.lat}, ${t.lng}`,
    t.radius_km,
    t.evaluated_from,
    t.state,
    t.proximity_pct,
    chance(t),
    time(t.last_evaluated_at),
  ]);
  return (
    [
      `${b.count} active trigger(s) in account ${b.account}`,
      '',
      ...table(
        [
          'id',
          'name',
          'peril',
          'fires on',
          'site',
          'km',
          'evaluated from',
          'state',
          '%',
          'fires in',
          'evaluated (UTC)',
        ],
        rows,
        [L, L, L, L, L, R, L, L, R, R],
      ),
    ].join('\n') + '\n'
  );
}

/** "72 % of 50 (al092022)": the share of the live storm's ensemble members in which it fires (the likeliest storm). */
function chance(t: T): Cell {
  const p = (t.probability_to_trigger ?? [])[0];
  return p ? `${Math.round(p.probability * 100)} % of ${p.members} (${p.source_id})` : null;
}

/** "evaluated from nhc" / "evaluated from manual observations (`catintel trigger observe`)": what can move it. */
function evaluatedFrom(t: T): string {
  return t.evaluated_from === 'manual observations'
    ? 'evaluated from manual observations (`catintel trigger observe`): no feed moves it'
    : `evaluated from the ${t.evaluated_from} feed (and any values entered with \`catintel trigger observe\`)`;
}

export function triggerCard(t: T): string {
  return (
    [
      `${t.name} (${t.id}): ${condition(t)} within ${t.radius_km} km of ${t.lat}, ${t.lng}; alert at ${t.alert_at_pct} %`,
      `${t.status}, ${t.state} (${t.proximity_pct} %), created ${t.created_at}${t.last_evaluated_at ? `, evaluated ${t.last_evaluated_at}` : ''}`,
      ...(t.evaluated_from ? [evaluatedFrom(t)] : []),
    ].join('\n') + '\n'
  );
}

export function historyText(b: T): string {
  const head = triggerCard(b.trigger);
  if (b.entries.length === 0) return `${head}\nNo evaluations yet.\n`;
  const rows = b.entries.map((e: T) => [
    time(e.evaluated_at),
    e.source_id,
    time(e.observed_at),
    value(e.observed_value, e.unit),
    e.distance_km,
    e.proximity_pct,
    `${e.previous_state} -> ${e.state}`,
  ]);
  const next = b.links.find((l: T) => l.rel === 'next');
  return (
    [
      head,
      `${b.numberReturned} of ${b.numberMatched} entries, newest first`,
      '',
      ...table(['evaluated (UTC)', 'event', 'observed (UTC)', 'value at site', 'km', '%', 'state'], rows, [
        L,
        L,
        L,
        R,
        R,
        R,
      ]),
      '',
      `rule ${b.entries[0].rule_version}: ${b.entries[0].method}`,
      ...(next ? [`more: --cursor ${new URL(next.href, 'http://x').searchParams.get('cursor')}`] : []),
    ].join('\n') + '\n'
  );
}

export function evaluationText(b: T): string {
  const lines = [
    `${b.evaluated_at}: ${b.triggers_evaluated} trigger(s) against ${b.events_considered} live event(s); ${b.entries_added} new history entr${b.entries_added === 1 ? 'y' : 'ies'}, ${b.alerts_raised} alert(s)`,
  ];
  if (b.entries.length > 0) {
    lines.push(
      '',
      ...table(
        ['trigger', 'event', 'observed (UTC)', 'value at site', 'km', '%', 'state'],
        b.entries.map((e: T) => [
          e.trigger_id,
          e.source_id,
          time(e.observed_at),
          value(e.observed_value, e.unit),
          e.distance_km,
          e.proximity_pct,
          e.state,
        ]),
        [L, L, L, R, R, R],
      ),
    );
  }
  for (const t of b.newly_triggered)
    lines.push(
      '',
      `TRIGGERED: ${t.name} (${t.trigger_id}) by ${t.source_id}: ${t.observed_value} ${t.unit}, ${t.proximity_pct} % of threshold`,
    );
  return lines.join('\n') + '\n';
}

export function verifyText(b: T): string {
  const head = `${b.entries_checked} entr${b.entries_checked === 1 ? 'y' : 'ies'} of trigger ${b.trigger_id} recomputed with ${b.rule_version}: ${b.agreeing} agree, ${b.disagreeing.length} disagree`;
  return (
    [
      head,
      ...b.disagreeing.flatMap((d: T) => [
        ``,
        `entry ${d.entry_id} (event ${d.event_id ?? '-'}, observed ${d.observed_at ?? '-'}):`,
        ...d.problems.map((p: string) => `  - ${p}`),
      ]),
    ].join('\n') + '\n'
  );
}

export function alertsText(b: T): string {
  if (b.alerts.length === 0) return `No unread trigger notifications in account ${b.account}.\n`;
  const rows = b.alerts.map((a: T) => [
    time(a.created_at),
    a.kind,
    a.trigger_name,
    a.trigger_id,
    a.event_id,
    a.proximity_pct,
  ]);
  return (
    [
      ...table(['raised (UTC)', 'kind', 'trigger', 'id', 'event', '%'], rows, [L, L, L, L, L, R]),
      ...(b.marked_read ? ['', 'marked read'] : []),
    ].join('\n') + '\n'
  );
}
