/**
 * Provenance of a record (docs/contract.md#provenance: "every record carries source, source_url and ingested_at"):
 * the source of the data the record was made from, a link to the provider's record, and when this store
 * (or the data build) took it in. A record derived by a model names the model and the data build too.
 */
export interface Provenance {
  source: string;
  source_url: string;
  ingested_at: string;
}

/** The three fields of a row that carries them (an event row, a joined query), and nothing else. */
export function provenanceOf(r: Provenance): Provenance {
  return { source: r.source, source_url: r.source_url, ingested_at: r.ingested_at };
}
