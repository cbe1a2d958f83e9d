/**
 * Sampled ground-up losses, as gulmc draws them (full Monte Carlo): per item and sample, a hazard
 * intensity bin from the footprint's distribution (only when it has more than one bin), then a
 * damage ratio from the vulnerability cdf at the uniform draw, interpolated within the damage bin
 * (pytools gul/core.py get_gul). The damage draw is correlated within a peril correlation group:
 * z = sqrt(rho) * group draw + sqrt(1 - rho) * item draw, through gulmc's normal lookup tables.
 * Probabilities and losses are float32 in Oasis, so they are rounded to float32 where it stores them.
 *
 * The draws and losses are computed in the kernel's WebAssembly module (src/loss/assembly/sample.ts,
 * which follows these steps operation by operation); this file holds what the host prepares for it
 * (damage cdfs, dense groups) and drives it event by event.
 */
import { keptHazardBins } from './cdf-cutoff.js';
import type { SampleContext } from './kernel-inputs.js';
import type { KernelModule } from '../wasm/kernel-module.js';
import { correlationHash, damageHash, hazardHash } from './rng.js';

/**
 * Samples events one after another in the kernel's module (assembly/sample.ts), which holds the
 * per-item constants, the draws of the current event and every scratch array, so nothing is allocated
 * per item or event. Each event's sampled loss per item, before gul_alloc_rule, goes into the module's
 * `losses` for the items on an areaperil of its footprint: items x samples, an item's samples side by
 * side, so that the items of an areaperil (scattered over the item order) each touch one or two cache
 * lines rather than one per sample. The entries of other items are left as they are: the caller keeps
 * them 0.
 */
export class EventSampler {
  private epoch = 0;

  constructor(
    private readonly ctx: SampleContext,
    private readonly module: KernelModule,
  ) {}

  sampleEvent(eventId: number): void {
    const fp = this.ctx.footprint;
    const range = fp.byEvent.get(eventId);
    if (!range) return;
    const { wasm, positions, views } = this.module;
    const { apIndex, apStart } = positions;
    const hazCdf = views.hazCdf!;
    const hazBin = views.hazBin!;
    wasm.startEvent(++this.epoch, damageHash.event(eventId), correlationHash.event(eventId), hazardHash.event(eventId));
    let r = range[0];
    while (r < range[1]) {
      const ap = fp.areaperil[r];
      let end = r + 1;
      while (end < range[1] && fp.areaperil[end] === ap) end++;
      const a = apIndex.get(ap);
      if (a !== undefined) {
        // The hazard cdf as Oasis cuts it: the bins it drops are never drawn, and one bin left is no draw.
        const nHaz = end - r > 1 ? keptHazardBins(fp.prob, r, end, hazCdf) : 1;
        for (let k = 0; k < nHaz; k++) hazBin[k] = fp.intensityBin[r + k];
        // An areaperil met again in the same event (a footprint not sorted by areaperil) draws its items
        // again, and the last draw is the one kept, as when gulmc meets it again.
        wasm.sampleRun(apStart[a], apStart[a + 1], nHaz, fp.intensityBin[r]);
      }
      r = end;
    }
  }
}
