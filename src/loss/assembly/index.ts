// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.ts into ../wasm/kernel-wasm.ts (not
// compiled by tsc): one event's losses over the items it reaches, the loss kernel's inner loops
// (ground-up mean and maximum, sampling, caps, sums, level 1 of the financial module). The same steps
// and the same floating-point operations, in the same order, as the TypeScript they are documented in
// (domain/gul.ts, domain/sample.ts, domain/philox.ts, domain/normal.ts, kernel.ts), so the same numbers
// to the bit. Each file here is named after the TypeScript it mirrors.
//
// Every array lives in the module's memory, laid out by the host (wasm/kernel-module.ts), which
// passes their byte offsets to the setup functions; nothing is allocated here.

export { setupPositions } from './positions';
export { setupGul, setupCuts, gulRow, gulAt, gulCuts, collect, capAtTiv } from './gul';
export { setupSampler, startEvent, sampleRun } from './sample';
export { drawSeed } from './philox';
export { toNormOf, fromNormOf } from './normal';
export { setupRecords, sumCoverages, addUp, clearEvent } from './records';
