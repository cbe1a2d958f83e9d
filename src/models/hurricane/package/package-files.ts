/**
 * Names shared by the model package's builder and its readers (the keys lookup, oasis run).
 * CELL_MAX_BIN_FILE holds one byte per cell of the wind grid (row-major, row·COLS + col): the highest
 * intensity bin any event of the catalog puts on the cell, 0 where none does. CELL_MAX_SURGE_BIN_FILE is the
 * same for surge: the highest surge bin (1-based within the surge bins) of the cell, 0 where no event
 * brings surge.
 */
export const PACKAGE_MODEL = 'catintel-hurricane';
export const CELL_MAX_BIN_FILE = 'cell_max_intensity_bin.bin';
export const CELL_MAX_SURGE_BIN_FILE = 'cell_max_surge_bin.bin';
