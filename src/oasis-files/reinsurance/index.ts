/** OED reinsurance to Oasis RI_n files, and the loss net of reinsurance they give. */
export {
  writeReinsuranceFiles,
  buildReinsuranceFiles,
  reinsuranceFileSet,
  type ReinsuranceFilesOptions,
  type ReinsuranceLayerInfo,
  type ReinsuranceFileText,
} from './write-files.js';
export {
  reinsuranceLosses,
  readReinsuranceFm,
  readReinsuranceLayers,
  type OutputLoss,
  type ReinsuranceFm,
} from './losses.js';
export type { ReinsuranceLayerFiles } from './domain/types.js';
