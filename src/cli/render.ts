/**
 * Human output for the terminal, per handler; `--json` prints the handler's JSON unchanged instead. Each
 * kind of output has its module in render/; anything without one (a new handler, a planned one) is shown
 * as indented `key: value` lines, so a person never gets raw JSON without asking for it.
 */
import { escapeControlsDeep, escapeControlsKeepLines } from '../lib/control-chars.js';
import type { UntypedJson } from '../lib/untyped-json.js';
import { dbCheckText, dbInfoText, ingestLines } from './render/store.js';
import { eventCard, eventsTable, ringsTable, type CollectionLike } from './render/events.js';
import { isScoreBody, scoreTable } from './render/scores.js';
import { keyCreated, keyRecord, keysTable, tokenIssued } from './render/credentials.js';
import { keyValues } from './render/text.js';
import { basisRiskText } from './render/trigger-basis-risk.js';
import { backtestText } from './render/trigger-backtest.js';
import { ics209Text } from './render/reports.js';
import { exposureText, infrastructureText, predictionText, scenarioText, timelineText } from './render/intelligence.js';
import { epCurveText } from './render/ep-curve.js';
import { caseLine } from '../oasis-fm-test/case-line.js';
import type { FmTestCaseResult } from '../oasis-fm-test/run-case.js';
import {
  locationAlertsText,
  locationsExposureText,
  portfolioCreated,
  portfolioDeleted,
  portfolioExposureText,
  portfolioPage,
  portfoliosList,
  savedLocationCard,
  savedLocationsList,
} from './render/portfolios.js';
import { alertsText, evaluationText, historyText, triggerCard, triggersTable, verifyText } from './render/triggers.js';

type Renderer = (body: UntypedJson) => string;

const RENDERERS: Record<string, Renderer> = {
  'events.live': (b: CollectionLike) => eventsTable(b),
  'events.nearby': (b: CollectionLike) => eventsTable(b),
  'events.show': eventCard,
  'events.rings': ringsTable,
  ingest: ingestLines,
  'db.seed': ingestLines,
  'db.info': dbInfoText,
  'db.check': dbCheckText,
  'keys.create': keyCreated,
  'keys.list': keysTable,
  'keys.revoke': keyRecord,
  'token.issue': tokenIssued,
  'triggers.backtest': backtestText,
  'triggers.basis_risk': basisRiskText,
  ics209: ics209Text,
  infrastructure: infrastructureText,
  'events.exposure': exposureText,
  'events.prediction': predictionText,
  'events.timeline': timelineText,
  'scenarios.run': scenarioText,
  'scenarios.show': scenarioText,
  'portfolio.ep_curve': epCurveText,
  'portfolio.create': portfolioCreated,
  'portfolio.list': portfoliosList,
  'portfolio.show': portfolioPage,
  'portfolio.delete': portfolioDeleted,
  'portfolio.exposure': portfolioExposureText,
  'locations.create': savedLocationCard,
  'locations.remove': savedLocationCard,
  'locations.list': savedLocationsList,
  'locations.exposure': locationsExposureText,
  'locations.alerts': locationAlertsText,
  'triggers.list': triggersTable,
  'triggers.create': triggerCard,
  'triggers.deactivate': triggerCard,
  'triggers.history': historyText,
  'triggers.evaluate': evaluationText,
  'triggers.verify': verifyText,
  'triggers.alerts': alertsText,
  // The bulk summary's fields are the bulk scorer's to define: the counts first, then whatever it reports.
  // One line per FM acceptance case: passed, refused with the reason, or the first differing file and line.
  'oasis.fm-test': (b: { cases: FmTestCaseResult[] }) => b.cases.map(caseLine).join('\n') + '\n',
  'score.bulk': (b) => keyValues(b, 0, ['rows', 'scored', 'errors', 'outside_coverage']).join('\n') + '\n',
};

/**
 * The handler's body as text. Every string in it is first shown with its control characters escaped
 * (src/lib/control-chars.ts): a feed title with ESC, CR or NUL must not recolour the terminal or break a
 * table, whatever renderer prints it. A body that is a document (an EP curve's CSV or SVG) keeps its lines.
 */
export function renderHuman(name: string, raw: unknown): string {
  const body = typeof raw === 'string' ? escapeControlsKeepLines(raw) : escapeControlsDeep(raw);
  const own = RENDERERS[name];
  if (own) return own(body);
  if (isScoreBody(body)) return scoreTable(body); // score point, events score (also format=oasis rows below)
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return keyValues(body as Record<string, unknown>).join('\n') + '\n';
  return JSON.stringify(body, null, 2) + '\n';
}
