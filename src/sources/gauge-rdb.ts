/**
 * Tables that sit beside the gauge feeds but are not readings. USGS RDB text (tab-separated, `#` comment header; https://waterservices.usgs.gov/docs/ "RDB" output):
 * the site service, the annual-peak service and the format=rdb variant of IV/DV. None of them is what
 * usgs-gauges reads (IV WaterML-JSON), so we only recognise them, to refuse them by name; likewise the
 * NOAA NWPS all-gauges report, the reference table data/flood-stages.csv is built from.
 */

/** The NWPS all-gauges report CSV (header "location name,nws shef id,usgs id,..."), in words; else null. */
export function describeNwpsReport(body: string): string | null {
  const first = body.slice(0, 300).toLowerCase();
  return first.includes('nws shef id') && first.includes('usgs id')
    ? 'the NOAA NWPS all-gauges report (CSV): flood-category reference data that `make data` builds into data/flood-stages.csv, not gauge readings'
    : null;
}

/** What an RDB body is, in words for an error message; null when the body is not RDB. */
export function describeRdb(body: string): string | null {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (!text.trimStart().startsWith('#')) return null;
  const header = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
  if (!header || !header.includes('\t')) return null;
  const cols = new Set(header.split('\t').map((c) => c.trim()));
  if (cols.has('peak_dt') || cols.has('peak_va')) {
    return 'a USGS annual peak-flow table (RDB text, nwis/peak): one historical peak per water year, not live gauge readings';
  }
  if (cols.has('station_nm') && cols.has('dec_lat_va')) {
    return 'a USGS site-service table (RDB text, nwis/site): site names and locations, no gauge readings';
  }
  if (cols.has('datetime') && cols.has('site_no')) {
    return 'USGS gauge values as RDB text (format=rdb); ask the service for format=json';
  }
  return 'a USGS RDB table (tab-separated text), not WaterML-JSON';
}
