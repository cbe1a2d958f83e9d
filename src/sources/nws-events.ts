/**
 * NWS alert `event` names -> docs/contract.md#events event_type, and CAP severity/certainty -> our numbers.
 * Names are the api.weather.gov event list (https://api.weather.gov/alerts/types) and the NWS
 * Directive 10-1701/10-511 product names. Anything not listed is not a catastrophe peril for this
 * product (marine, air quality, rip currents, fog, smoke, frost, generic statements) and is skipped.
 */
import type { EventType } from '../domain/event.js';

const PERIL_OF: Record<string, EventType> = {};
const add = (eventType: EventType, names: string[]) => {
  for (const n of names) PERIL_OF[n.toLowerCase()] = eventType;
};

add('flood', [
  'Flood Warning',
  'Flood Watch',
  'Flood Advisory',
  'Flood Statement',
  'Flash Flood Warning',
  'Flash Flood Watch',
  'Flash Flood Statement',
  'Coastal Flood Warning',
  'Coastal Flood Watch',
  'Coastal Flood Advisory',
  'Coastal Flood Statement',
  'Lakeshore Flood Warning',
  'Lakeshore Flood Watch',
  'Lakeshore Flood Advisory',
  'Lakeshore Flood Statement',
  'River Flood Warning',
  'River Flood Watch',
  'River Flood Advisory',
  'River Flood Statement',
  'Areal Flood Warning',
  'Areal Flood Watch',
  'Areal Flood Advisory',
  'Urban and Small Stream Flood Advisory',
  'Arroyo and Small Stream Flood Advisory',
  'Small Stream Flood Advisory',
]);
add('tornado', ['Tornado Warning', 'Tornado Watch']);
// High Wind products are synoptic damaging wind (sustained >= 40 mph or gusts >= 58 mph, NWS criteria);
// Wind Advisory and Lake Wind Advisory are below damaging thresholds and are skipped.
add('severe_storm', [
  'Severe Thunderstorm Warning',
  'Severe Thunderstorm Watch',
  'Severe Weather Statement',
  'High Wind Warning',
  'High Wind Watch',
]);
// Extreme cold is not one of the ten event types; warnings/watches sit with winter_storm (the
// closest peril, and how NRI's Winter Weather groups them). Cold advisories are skipped.
add('winter_storm', [
  'Winter Storm Warning',
  'Winter Storm Watch',
  'Blizzard Warning',
  'Blizzard Watch',
  'Ice Storm Warning',
  'Winter Weather Advisory',
  'Lake Effect Snow Warning',
  'Lake Effect Snow Watch',
  'Lake Effect Snow Advisory',
  'Snow Squall Warning',
  'Freezing Rain Advisory',
  'Heavy Snow Warning',
  'Extreme Cold Warning',
  'Extreme Cold Watch',
  'Wind Chill Warning',
  'Wind Chill Watch',
]);
// "Excessive Heat" products were renamed "Extreme Heat" in March 2025; both names are accepted.
add('extreme_heat', [
  'Excessive Heat Warning',
  'Excessive Heat Watch',
  'Extreme Heat Warning',
  'Extreme Heat Watch',
  'Heat Advisory',
]);
// Extreme Wind Warning is issued only for the eyewall of a landfalling tropical cyclone.
add('hurricane', [
  'Hurricane Warning',
  'Hurricane Watch',
  'Tropical Storm Warning',
  'Tropical Storm Watch',
  'Storm Surge Warning',
  'Storm Surge Watch',
  'Typhoon Warning',
  'Typhoon Watch',
  'Hurricane Local Statement',
  'Tropical Cyclone Local Statement',
  'Extreme Wind Warning',
]);
add('tsunami', ['Tsunami Warning', 'Tsunami Watch', 'Tsunami Advisory']);
// Fire Warning = a fire is burning and threatens people. Red Flag Warning and Fire Weather Watch
// forecast fire-prone weather with no fire: they are skipped (NIFC is our wildfire source).
add('wildfire', ['Fire Warning']);
add('volcano', ['Ashfall Warning', 'Ashfall Advisory', 'Volcano Warning']);

/** The event_type of an NWS event name, or null when it is not a catastrophe peril. */
export function perilOf(nwsEvent: string): EventType | null {
  return PERIL_OF[nwsEvent.trim().toLowerCase()] ?? null;
}

/** CAP 1.2 `severity` (OASIS CAP §3.2.2) as an ordinal 0-4, so events sort and compare. */
export const CAP_SEVERITY: Record<string, number> = { Extreme: 4, Severe: 3, Moderate: 2, Minor: 1, Unknown: 0 };

/**
 * CAP `certainty` -> confidence 0..1. CAP defines Likely as p > ~50 % and Possible as p <= ~50 %;
 * we take representative values (Observed 1.0, Likely 0.8, Possible 0.5, Unlikely 0.2). Unknown gets
 * 0.3: an NWS product was issued, so it is more than Unlikely, but nothing vouches for it.
 */
export const CAP_CONFIDENCE: Record<string, number> = {
  Observed: 1,
  Likely: 0.8,
  Possible: 0.5,
  Unlikely: 0.2,
  Unknown: 0.3,
};
