// Its own module so the pure track-set builders and the binary writers can name it without the file writer.
/** One occurrence of an event in a simulated year (Oasis occurrence.csv). */
export interface OccurrenceRow {
  eventId: number;
  periodNo: number;
  occYear: number;
  occMonth: number;
  occDay: number;
}
