/** OED reinsurance to Oasis RI_n files, and the loss net of reinsurance they give. */
export { writeReinsuranceFiles, buildReinsuranceFiles, reinsuranceFileSet } from './write-files.js';
export { reinsuranceLosses, readReinsuranceLayers } from './losses.js';
