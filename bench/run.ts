/** `npm run bench`: every benchmark, JSON lines on stdout. Inputs are fixed files (seeded where random). */
import path from 'node:path';
import { benchIngest } from './ingest.js';
import { benchLiveLoad } from './live-load.js';
import { benchScore } from './score.js';
import { benchTriggers } from './triggers.js';
import { benchIntelligence } from './intelligence.js';
import { benchPortfolios } from './portfolios.js';
import { benchReports } from './reports.js';
import { benchOasis } from './oasis.js';
import { benchOasisFiles } from './oasis-files.js';
import { benchOasisRunFromOed } from './oasis-run-oed.js';
import { benchEpCurve } from './epcurve.js';
import { benchArrow } from './arrow.js';
import { benchBigBook } from './bigbook.js';
import { benchEpModel } from './ep-models.js';
import { benchEventLoss } from './event-loss.js';
import { benchScoreWorkers } from './score-workers.js';
import { benchReplicas } from './replicas.js';
import { benchCliStart } from './cli-start.js';
import { benchDuckdbThreads } from './duckdb-threads.js';

const sharedData = process.env.CATINTEL_SHARED_DATA ?? path.resolve('../shared/data');
const only = process.argv[2];

if (!only || only === 'ingest') await benchIngest(sharedData);
if (!only || only === 'http') await benchLiveLoad(sharedData);
if (!only || only === 'score') await benchScore(sharedData);
if (!only || only === 'triggers') await benchTriggers(sharedData);
if (!only || only === 'intelligence') await benchIntelligence();
if (!only || only === 'portfolios') await benchPortfolios(sharedData);
if (!only || only === 'reports') await benchReports();
if (!only || only === 'oasis') await benchOasis(sharedData);
if (!only || only === 'oasis-files') await benchOasisFiles();
if (!only || only === 'oasis-files' || only === 'oasis-run-oed') await benchOasisRunFromOed(sharedData);
if (!only || only === 'arrow') await benchArrow(sharedData);
if (!only || only === 'cli-start') await benchCliStart(sharedData);
if (!only || only === 'duckdb-threads') await benchDuckdbThreads(sharedData);
// Minutes at its ten million locations: only when asked for by name.
if (only === 'bigbook') await benchBigBook(sharedData);
// 100,000 locations on 10,000-year model packages (and their build, unless --models names one): by name only.
// `epcurve`, the project's own package on a smaller synthetic book, is by name too: these two carry the goal.
if (only === 'epcurve') await benchEpCurve();
if (only === 'ep-hurricane') await benchEpModel('hurricane', sharedData);
if (only === 'ep-earthquake') await benchEpModel('earthquake', sharedData);
// A live hurricane's loss band, 100,000 locations x 50 members (and a package build without one): by name only.
if (only === 'event-loss') await benchEventLoss(sharedData);
// Bulk scoring on 1 and 2 `catintel worker` processes against a throwaway PostgreSQL (docs/scale-out.md): by name only.
if (only === 'score-workers') await benchScoreWorkers(sharedData);
// GET /events/live on a cluster store, one serve replica against two (a throwaway PostgreSQL): by name only.
if (only === 'replicas') await benchReplicas();
