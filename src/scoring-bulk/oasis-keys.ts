/**
 * keys.csv and keys-errors.csv from the side file the Oasis writer made (one line per location.csv row:
 * row, PortNumber, AccNumber, LocNumber, covered-perils mask, cell, lat, lng, LocPerilsCovered).
 *
 * LocID is oasislmf's loc_id (oasislmf/utils/data.py get_ids): the distinct (PortNumber, AccNumber,
 * LocNumber) triples numbered from 1 in sorted order, the values compared as strings — dense_rank over the
 * same key here; DuckDB compares VARCHAR bytewise, which is code-point order as in Python.
 * One keys row per (location, peril) for each scored peril with an OED code that the location's
 * LocPerilsCovered includes; CoverageTypeID 1 (a hazard score does not depend on the coverage);
 * AreaPerilID = (cell + 1) * 10 + peril index (src/oasis/perils.ts); VulnerabilityID 0: catintel assigns no
 * vulnerability. Locations outside the covered area get keys-errors rows with Status nomatch.
 */
import { PERILS, type Peril } from '../domain/scoring/perils.js';
import { OED_CODE } from '../oasis/perils.js';
import { sqlPath, withDuck } from './duck.js';

export interface KeysJob {
  pendingPath: string;
  keysPath: string;
  keysErrorsPath: string;
  perils: readonly Peril[];
  tmpDir: string;
  token: string;
}

const str = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function writeOasisKeys(job: KeysJob): Promise<{ keys: number; keysErrors: number }> {
  const keyed = job.perils.filter((p) => OED_CODE[p] !== null);
  const scoredCodes = keyed.map((p) => OED_CODE[p]).join(', ');
  // (peril index, OED code) of the keyed perils; an empty VALUES list is not valid SQL, so a dummy row
  // that no mask bit matches stands in when no scored peril has a code.
  const codes = keyed.length
    ? keyed.map((p) => `(${PERILS.indexOf(p)}, ${str(OED_CODE[p]!)})`).join(', ')
    : `(30, '')`;
  const outside = `'lat=' || lat || ', lng=' || lng || ' is outside the covered area (US states, DC and territories); scores exist only for points on or near US land'`;
  const none = `'none of the perils in LocPerilsCovered (' || coalesce(pc, 'blank') || ') is one catintel scores (' || ${str(scoredCodes || 'none')} || ')'`;
  const pending = `read_csv(${sqlPath(job.pendingPath)}, header = false, auto_detect = false, delim = ',', quote = '"', escape = '"',
    columns = {'r': 'BIGINT', 'p': 'VARCHAR', 'a': 'VARCHAR', 'l': 'VARCHAR', 'mask': 'INTEGER', 'cell': 'INTEGER', 'lat': 'VARCHAR', 'lng': 'VARCHAR', 'pc': 'VARCHAR'})`;

  return withDuck(job.tmpDir, job.token, async (d) => {
    await d.run(`CREATE TEMP TABLE codes (idx INTEGER, code VARCHAR)`);
    await d.run(`INSERT INTO codes VALUES ${codes}`);
    await d.run(`CREATE TEMP TABLE ids AS
      SELECT r, mask, cell, lat, lng, pc, dense_rank() OVER (ORDER BY p, a, l) AS loc_id FROM ${pending}`);
    const keys = await d.run(`COPY (
      SELECT loc_id AS LocID, code AS PerilID, 1 AS CoverageTypeID, (cell + 1) * 10 + idx AS AreaPerilID, 0 AS VulnerabilityID
      FROM ids, codes WHERE cell >= 0 AND (mask >> idx) & 1 = 1
      ORDER BY loc_id, idx
    ) TO ${sqlPath(job.keysPath)} (HEADER, DELIMITER ',')`);
    const keysErrors = await d.run(`COPY (
      SELECT LocID, PerilID, CoverageTypeID, Status, Message FROM (
        SELECT loc_id AS LocID, code AS PerilID, idx AS o, 1 AS CoverageTypeID, 'nomatch' AS Status, ${outside} AS Message
        FROM ids, codes WHERE cell < 0 AND (mask >> idx) & 1 = 1
        UNION ALL
        SELECT loc_id, coalesce(pc, ''), -1, 1, 'nomatch', CASE WHEN cell < 0 THEN ${outside} || '; ' ELSE '' END || ${none}
        FROM ids WHERE mask = 0
      ) ORDER BY LocID, o
    ) TO ${sqlPath(job.keysErrorsPath)} (HEADER, DELIMITER ',')`);
    return { keys, keysErrors };
  });
}
