/** OED reinsurance to Oasis RI_n files, and the loss net of reinsurance they give. */
export { writeReinsuranceFiles, buildReinsuranceFiles, type ReinsuranceFilesOptions, type ReinsuranceLayerInfo } from './write-files.js';
export { netOfReinsurance, netLossOfEvent, type ReinsuranceFm } from './domain/net-loss.js';
export { reinsuranceLosses, readReinsuranceFm, readReinsuranceLayers, type OutputLoss } from './losses.js';
export type { ReinsuranceLayerFiles } from './domain/types.js';
