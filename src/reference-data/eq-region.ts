/** The two earthquake regions the hazard build treats apart: the western US and the stable central and eastern US. */
export type Region = 'west' | 'east';
