/**
 * What the change feed says (docs/stream.md). Every message has a `type`, so kinds can be added (trigger
 * state changes, location alerts) without breaking a client that ignores types it does not know.
 */
import type { Feature, Point } from 'geojson';
import type { EventProperties } from '../domain/features.js';
import type { Provenance } from '../domain/provenance.js';

export type EventFeature = Feature<Point, EventProperties>;

/**
 * A ring as the stream reports it: what changed, not the polygon (GET /events/{id}/rings has that), with its
 * event's provenance as the ring features carry it.
 */
export interface RingSummary extends Provenance {
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  radius_km: number | null;
}

export type ChangeBody =
  /** The event joined the live set (new, or known before and live again). */
  | { type: 'event.new'; event: EventFeature }
  /** A live event changed: a new version from its source, or its status moved (active -> monitoring). */
  | { type: 'event.updated'; event: EventFeature }
  /** The event left the live set (ended, or its status no longer live at the clock). */
  | { type: 'event.ended'; event: EventFeature }
  /** A live event's consequence rings changed (added, redrawn or removed). */
  | { type: 'rings.changed'; event_id: string; slug: string; rings: RingSummary[]; rings_url: string }
  /**
   * One of the caller's triggers moved between clear, alert and triggered (authenticated callers only), with
   * the provenance of the history entry its state rests on (src/stream/triggers.ts).
   */
  | ({
      type: 'trigger.state';
      trigger_id: string;
      name: string;
      state: string;
      previous_state: string;
      proximity_pct: number;
      history_url: string;
    } & NullableProvenance)
  /** An alert was raised on one of the caller's triggers (kind alert: alert_at_pct crossed; triggered: 100 %); provenance as GET /triggers/alerts. */
  | ({
      type: 'trigger.alert';
      alert_id: string;
      trigger_id: string;
      name: string;
      kind: string;
      event_id: string | null;
      proximity_pct: number;
      created_at: string;
    } & NullableProvenance)
  /**
   * An evaluation round changed the probability to trigger now of one of the caller's hurricane triggers: the
   * share of a live storm's ensemble members in which it fires, with the advisory or best track it came from
   * (src/stream/trigger-probability.ts); the storm's provenance.
   */
  | ({
      type: 'trigger.probability';
      trigger_id: string;
      name: string;
      event_id: string;
      source_id: string;
      probability: number;
      previous_probability: number | null;
      members: number;
      members_firing: number;
      advisory: string;
      forecast: string;
      computed_at: string;
      triggers_url: string;
    } & NullableProvenance)
  /** An ingest raised an alert for one of the caller's saved locations (the ring that reached it; docs/portfolios.md); its event's provenance. */
  | ({
      type: 'location.alert';
      alert_id: string;
      location_id: string;
      name: string;
      event_id: string;
      ring_label: string;
      distance_km: number;
      raised_at: string;
    } & Provenance)
  /** An ingest raised an alert for one of the caller's portfolios: a ring holding covered locations, with their TIV; its event's provenance. */
  | ({
      type: 'portfolio.alert';
      alert_id: string;
      portfolio_id: string;
      name: string;
      event_id: string;
      ring_label: string;
      NumLocations: number;
      TotalInsuranceAmt: number;
      CurCd: string;
      raised_at: string;
    } & Provenance)
  /**
   * A new version of a live hurricane or earthquake reached one of the caller's portfolios: its loss band
   * recomputed on that version (src/stream/portfolio-loss.ts), with the change from the last version's band.
   */
  | ({
      type: 'portfolio.loss';
      portfolio_id: string;
      name: string;
      event_id: string;
      slug: string;
      version: number;
      product_version: string;
      footprint: unknown;
      members: number;
      samples: number;
      CurCd: string | null;
      TIVInFootprintAmt: number;
      gul: LossBandAmts;
      il: LossBandAmts;
      previous: { version: number; product_version: string; TIVInFootprintAmt: number; gul: LossBandAmts } | null;
      delta: { TIVInFootprintAmt: number; gul: LossBandAmts } | null;
      loss_url: string;
    } & Provenance);

export interface LossBandAmts {
  MeanLossAmt: number;
  P10LossAmt: number;
  P50LossAmt: number;
  P90LossAmt: number;
}

/** Provenance read through a left join (a history entry, its event): null only where the row it names is gone, as in GET /triggers/alerts. */
export interface NullableProvenance {
  source: string | null;
  source_url: string | null;
  ingested_at: string | null;
}

/** A change with its place in the feed. `subject` (the event) is kept for filtering (bbox, event_type). */
export interface Change {
  /** Stream id: "<feed epoch>-<sequence>"; the SSE `id:` a client sends back as Last-Event-ID. */
  id: string;
  seq: number;
  at: string;
  body: ChangeBody;
  /** The event the change is about; none for trigger messages, which the event filters do not apply to. */
  subject?: EventFeature;
  /** Set on trigger messages: only this account's streams get them. */
  account?: string;
}
