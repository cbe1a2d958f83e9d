/**
 * The data each model's builder reads from the shared data directory (--from), as paths under it: files,
 * and folders whose every file counts (the builder picks its tables from them by the vulnerabilities it
 * writes, --oed-location adding others). A file read by a builder and missing here would let a changed
 * input reuse a package built from the old one: test/model-build-cache.test.ts builds each model from a
 * data directory holding only these paths.
 */
import type { PackageModel } from '../package-kind.js';

export async function buildInputsOf(model: PackageModel): Promise<string[]> {
  // The builders' own names for them, loaded as the builders are: only for the model asked for.
  if (model === 'hurricane') {
    const [{ HURDAT2_ATLANTIC }, { HAZUS_HURRICANE_DIR }, { HAZUS_FLOOD_DIR }] = await Promise.all([
      import('../hurricane/track-set.js'),
      import('../hurricane/package/build.js'),
      import('../hurricane/io/hazus-flood-data.js'),
    ]);
    return [HURDAT2_ATLANTIC, HAZUS_HURRICANE_DIR, HAZUS_FLOOD_DIR];
  }
  const [{ INPUTS }, { HAZUS_EARTHQUAKE_DIR }] = await Promise.all([
    import('../../reference-data/inputs.js'),
    import('../earthquake/package/build.js'),
  ]);
  return [
    INPUTS.wusCatalog,
    INPUTS.ceusCatalog,
    INPUTS.nshmWusExtPdf,
    INPUTS.nshmCeusPdf,
    INPUTS.nshmFaultSections,
    INPUTS.nshmFaultSlipRates,
    INPUTS.nshmSpecialFaults,
    HAZUS_EARTHQUAKE_DIR,
  ];
}
