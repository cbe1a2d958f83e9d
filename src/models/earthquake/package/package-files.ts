/**
 * Names shared by the earthquake model package's builder and its readers (the keys lookup, oasis run).
 * CELL_ZONE_FILE holds one byte per cell of the package grid (row-major, row · COLS + col): 1 + the index
 * in SEISMIC_ZONES of the cell's UBC 1997 seismic zone, from the catalog's own 10 %-in-50-years PGA there.
 */
export const PACKAGE_MODEL = 'catintel-earthquake';
export const CELL_ZONE_FILE = 'cell_seismic_zone.bin';
export const EVENT_CATALOG_FILE = 'event_catalog.csv';
/** The keys' peril: OED's earthquake shake. */
export const KEYS_PERIL = 'QEQ';
