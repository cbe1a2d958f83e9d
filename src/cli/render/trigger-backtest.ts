/**
 * `catintel trigger backtest` as text: a headline with the annual probability and its interval, then one
 * row per year that fired or alerted, the worst storm or quake first, with the others of that year after.
 */
import type { TriggerBacktestBody } from '../../handlers/trigger-backtest.js';
import { table } from './text.js';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function backtestText(b: TriggerBacktestBody): string {
  const t = b.trigger;
  const ap = b.annual_probability;
  const head = [
    `${t.name}: ${t.threshold_type} ${t.threshold_value} within ${t.radius_km} km of ${t.lat}, ${t.lng} (alert at ${t.alert_at_pct} %)`,
    `${b.catalog}, ${b.from_year}-${b.to_year} (${b.years_covered} years): fired in ${b.years_triggered}, alert only in ${b.years_alert}`,
    `annual probability of firing ${pct(ap.value)} (${ap.level * 100} % Clopper-Pearson interval ${pct(ap.lower)} - ${pct(ap.upper)})`,
  ];
  if (b.years.length === 0) return [...head, '', 'No year fired or came within the alert level.'].join('\n') + '\n';
  const rows = b.years.flatMap((y) =>
    y.events.map((e, i) => [
      i === 0 ? y.year : '',
      e.state,
      e.name,
      e.id,
      e.at.slice(0, 16).replace('T', ' '),
      `${e.value} ${e.unit}`,
      e.distance_km,
      `${e.proximity_pct}`,
    ]),
  );
  return (
    [
      ...head,
      '',
      ...table(['year', 'state', 'name', 'id', 'at (UTC)', 'value', 'km', '%'], rows, [
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        'right',
        'right',
        'right',
      ]),
      '',
      `method: ${b.method}`,
    ].join('\n') + '\n'
  );
}
