/** `catintel trigger basis-risk` as text: the counts at the trigger's threshold, then the sweep with the best placed threshold marked. */
import type { BasisRiskBody } from '../../handlers/trigger-basis-risk.js';
import { table } from './text.js';

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)} %`);
const money = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

export function basisRiskText(b: BasisRiskBody): string {
  const t = b.trigger;
  const a = b.at_threshold;
  const level =
    b.loss_level.from === 'given'
      ? `${money(b.loss_level.LossAmt)} ${b.CurCd ?? ''}`.trim()
      : `${money(b.loss_level.LossAmt)} ${b.CurCd ?? ''} (the book's ${b.loss_level.return_period_years}-year OEP loss)`.replace(
          ' (',
          ' (',
        );
  const rows = b.sweep.map((r) => [
    `${r.threshold}${r.threshold === b.best_threshold.threshold ? ' (best)' : ''}${r.threshold === t.threshold_value ? ' (trigger)' : ''}`,
    r.hits,
    r.misses,
    r.false_alarms,
    pct(r.hit_rate),
    pct(r.false_alarm_rate),
    r.critical_success_index === null ? '-' : r.critical_success_index.toFixed(3),
  ]);
  const R = 'right' as const;
  return (
    [
      `${t.name}: ${t.threshold_type} ${t.threshold_value} within ${t.radius_km} km of ${t.lat}, ${t.lng}`,
      `against portfolio ${b.PortfolioId} over ${b.model_version} (${b.catalog.events} events, ${b.catalog.events_read_by_trigger} inside the circle)`,
      `loss level ${level}`,
      `hits ${a.hits}, misses ${a.misses}, false alarms ${a.false_alarms}: hit rate ${pct(a.hit_rate)}, miss rate ${pct(a.miss_rate)}, false-alarm rate ${pct(a.false_alarm_rate)}`,
      `payout-loss correlation ${b.payout_loss_correlation === null ? '-' : b.payout_loss_correlation.toFixed(3)} over ${b.correlation_events} events`,
      `best placed threshold ${b.best_threshold.threshold}: ${b.best_threshold.misses} misses and ${b.best_threshold.false_alarms} false alarms`,
      ...(b.history
        ? [
            `over the record (${b.history.catalog}; ${b.history.storms} storms): hits ${b.history.at_threshold.hits}, misses ${b.history.at_threshold.misses}, false alarms ${b.history.at_threshold.false_alarms}; payout-loss correlation ${b.history.payout_loss_correlation === null ? '-' : b.history.payout_loss_correlation.toFixed(3)}`,
          ]
        : []),
      '',
      ...table(['threshold', 'hits', 'misses', 'false alarms', 'hit rate', 'false-alarm rate', 'CSI'], rows, [
        undefined,
        R,
        R,
        R,
        R,
        R,
        R,
      ]),
      '',
      `method: ${b.method}`,
    ].join('\n') + '\n'
  );
}
