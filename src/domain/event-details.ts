/**
 * An event row's `details` column (the feed's own fields, stored as JSON text) as an object: an empty one
 * when the text is not a JSON object, so a reader asks for a field and gets undefined.
 */
export function eventDetails(json: string): Record<string, unknown> {
  try {
    const d = JSON.parse(json) as unknown;
    return typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
