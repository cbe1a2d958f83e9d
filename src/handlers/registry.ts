/**
 * Every handler, once. The CLI program and the /api/v1 routes are both generated from this list, so the
 * two cannot drift apart (test/parity.test.ts runs each handler through both).
 */
import type { Handler } from './types.js';
import { eventsLive, eventsNearby, eventsRings, eventsShow } from './events.js';
import { eventsStream } from './events-stream.js';
import { ingest } from './ingest.js';
import { dbCheck } from './db-check.js';
import { dbInfo } from './db-info.js';
import { dbSeed } from './db-seed.js';
import { keysCreate, keysList, keysRevoke } from './keys.js';
import { tokenIssue } from './token.js';
import { PLANNED } from './planned.js';
import { riskScore } from './score-point.js';
import { hazardCurve } from './hazard-curve.js';
import { scoreBulk } from './score-bulk.js';
import { worker } from './worker.js';
import { eventScore } from './event-score.js';
import { dataBuild } from './data-build.js';
import { oasisRun } from './oasis-run.js';
import { oasisFiles } from './oasis-files.js';
import { oasisFmTest } from './oasis-fm-test.js';
import { modelBuild } from './model-build.js';
import { modelKeys } from './model-keys.js';
import { OGC_HANDLERS } from './ogc.js';
import { triggersCreate } from './triggers-create.js';
import { triggersList } from './triggers-list.js';
import { triggersHistory } from './triggers-history.js';
import { triggersDeactivate } from './triggers-deactivate.js';
import { triggersAlerts } from './triggers-alerts.js';
import { triggersEvaluate } from './triggers-evaluate.js';
import { triggersVerify } from './triggers-verify.js';
import { triggersObserve } from './triggers-observe.js';
import { triggerBacktest } from './trigger-backtest.js';
import { triggerBasisRisk } from './trigger-basis-risk.js';
import { portfolioEpCurve } from './portfolio-ep-curve.js';
import { portfolioEventLoss } from './portfolio-event-loss.js';
import { health, healthSources } from './health.js';
import { briefingCommand, eventsBriefing } from './events-briefing.js';
import { eventsIcs209, ics209Command } from './events-ics209.js';
import { infrastructure } from './infrastructure.js';
import { eventsPrediction } from './events-prediction.js';
import { eventsTimeline } from './events-timeline.js';
import { eventsDiff } from './events-diff.js';
import { eventsExposure } from './events-exposure.js';
import { scenariosRun } from './scenarios-run.js';
import { scenariosShow } from './scenarios-show.js';
import {
  portfolioCreate,
  portfolioDelete,
  portfolioExposureHandler,
  portfolioList,
  portfolioShow,
} from './portfolio.js';
import {
  locationsAlerts,
  locationsCreate,
  locationsExposureHandler,
  locationsList,
  locationsRemove,
} from './locations.js';

export const HANDLERS: Handler[] = [
  // /events/nearby must be routed before /events/{id}, or "nearby" would be taken for an id.
  eventsLive,
  eventsNearby,
  eventsStream,
  eventsShow,
  eventsRings,
  eventScore,
  ingest,
  dbInfo,
  dbCheck,
  dbSeed,
  keysCreate,
  keysList,
  keysRevoke,
  tokenIssue,
  riskScore,
  // After `score point`: the bulk command is the `score` group's own action (docs/scoring.md "Bulk scoring").
  scoreBulk,
  // The scale-out worker that scores `score --queue` chunks (docs/scale-out.md).
  worker,
  // Hazard curves of catintel's own models (docs/hurricane-model.md#hazard-curves, docs/earthquake-model.md#hazard-curves).
  hazardCurve,
  dataBuild,
  oasisRun,
  oasisFiles,
  oasisFmTest,
  // The hurricane model package (docs/hurricane-model.md).
  modelBuild,
  modelKeys,
  // Parametric triggers (docs/contract.md#triggers): /triggers/alerts is a static path, matched before /triggers/{id}.
  triggersCreate,
  triggersList,
  triggersAlerts,
  triggersHistory,
  triggersDeactivate,
  triggersObserve,
  triggersEvaluate,
  triggersVerify,
  triggerBacktest,
  // A trigger's basis risk against a book over a model package's catalog (docs/basis-risk.md).
  triggerBasisRisk,
  // Portfolio EP curve (docs/ep-curves.md).
  portfolioEpCurve,
  // A portfolio's loss from a live event (docs/event-loss.md).
  portfolioEventLoss,
  // Reports (docs/reports.md): HTTP answers the document; the CLI commands write files (paths stay on the caller's side).
  eventsBriefing,
  briefingCommand,
  eventsIcs209,
  ics209Command,
  // Event intelligence (docs/intelligence.md).
  infrastructure,
  eventsPrediction,
  eventsTimeline,
  eventsDiff,
  eventsExposure,
  scenariosRun,
  scenariosShow,
  // Portfolios and saved locations (docs/contract.md#portfolios, docs/portfolios.md): /portfolio/exposure is a static path, matched before /portfolio/{id}.
  portfolioCreate,
  portfolioList,
  portfolioExposureHandler,
  portfolioShow,
  portfolioDelete,
  locationsCreate,
  locationsList,
  locationsExposureHandler,
  locationsAlerts,
  locationsRemove,
  health,
  healthSources,
  // OGC API - Features (HTTP only): the same events as /events/live, for GIS clients.
  ...OGC_HANDLERS,
  // Contract endpoints not built yet (501 after the access checks); a real handler on the same route wins.
  ...PLANNED,
];
