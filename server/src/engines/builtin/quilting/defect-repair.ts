/**
 * Repair of cut defects (defects.ts) after the first pass and the re-synthesis of the worst
 * cuts, before Poisson blending: the patches whose windows hold a defect above the bound are
 * searched again (beside the cut; where none of those is replaced, in a window centred on it),
 * held on all four sides, and a new patch is kept only if its window's worst defect falls; in
 * rounds, until none is above the bound or the rounds are spent.
 */
import type { PatchWindow } from './canvas.js';
import { defectScales, findDefects, wholeView, type DefectInput } from './defects.js';
import type { PatchPlacer } from './placement.js';

/**
 * The bound the repair works to, before Poisson blending: on the lines crossing the cuts only
 * (defects.ts without the output's pixels), since the blending evens out the colour steps across
 * the cuts but not a line that stops. A margin under {@link STRIPE_BOUND}, because the blending
 * leaves a little step. Measured on the six seam references (docs/engines.md, "Defects that
 * repeat").
 */
export const DEFECT_BOUND = 2;
/**
 * The bound on a finished output's stripe measure (steps and lines). On the six seam references
 * (256² → 320², seed 10) the repaired outputs score at most 2.4; plain quilting scores 3.7–20 on
 * six of the twelve (a grout or plank line, or an edge, ending at a cut); the textures' own cuts
 * through noise stay under 2.
 */
export const STRIPE_BOUND = 3;
/**
 * The bounds of the fine scale (a quarter patch: a single thin line ending at a cut), on a
 * finished output and, with the same margin as the coarse ones, for the repair. Measured on the
 * six seam references (docs/engines.md, "Defects that repeat"): noise and grain score up to 2.6
 * there; repaired at the coarse scale only, a plank gap or a mortar line ending at a cut still
 * scores up to 7.2.
 */
export const FINE_STRIPE_BOUND = 4;
export const FINE_DEFECT_BOUND = (FINE_STRIPE_BOUND * DEFECT_BOUND) / STRIPE_BOUND;
/**
 * Rounds of repair at most: each finds the defects again over the whole output. Over seeds
 * 10–13 of the six seam references at 1024² (48 outputs): 4 rounds trying beside the middle of
 * each cut only left 3 outputs above a bound (the worst fine 10.7); beside its ends too, 3 (4.7);
 * and with 6 rounds, 2 (4.4), for 3 % more time (docs/engines.md, "Defects that repeat").
 */
export const DEFECT_ROUNDS = 6;

/** What the repair needs besides the placer: the reference, its energy, the form's patch size. */
export type RepairInput = Omit<DefectInput, 'source' | 'W' | 'H' | 'seamless'> & { patch: number };

/** Runs the rounds; returns how many patches were replaced. */
export function repairDefects(
  placer: PatchPlacer,
  reference: RepairInput,
  bounds: readonly [coarse: number, fine: number] = [DEFECT_BOUND, FINE_DEFECT_BOUND],
  rounds = DEFECT_ROUNDS,
): number {
  const { canvas } = placer;
  const scales = defectScales(reference.patch, ...bounds);
  const input: DefectInput = {
    ...reference,
    source: canvas.source,
    W: canvas.W,
    H: canvas.H,
    seamless: canvas.seamless,
  };
  const whole = wholeView(canvas.W, canvas.H, canvas.seamless);
  // A window's worst defect over the scales, each against its bound.
  const windowScore = (window: PatchWindow) => {
    const view = { cols: window.colMap, rows: window.rowMap, wrap: false };
    const { worst } = findDefects(input, view, scales);
    return scales.reduce((most, scale, k) => Math.max(most, (worst[k] ?? 0) / scale.minScore), 0);
  };
  let replaced = 0;
  // The cells on either side of the cut at (x, y), a quarter patch each way, tried in turn until
  // one is replaced; each cell once per round (`tried`).
  const quarter = Math.ceil(reference.patch / 4);
  const retryBeside = (x: number, y: number, vertical: boolean, tried: Set<number>): boolean => {
    for (const side of [-quarter, quarter]) {
      const cell = placer.cellNear(
        mod(x + (vertical ? side : 0), canvas.W),
        mod(y + (vertical ? 0 : side), canvas.H),
      );
      if (tried.has(cell)) continue;
      tried.add(cell);
      if (placer.retry(cell, windowScore, true)) {
        replaced++;
        return true;
      }
    }
    return false;
  };
  for (let round = 0; round < rounds; round++) {
    const { defects } = findDefects(input, whole, scales);
    if (defects.length === 0) break;
    // A retry draws anew, so a cell not replaced in one round may be in the next.
    const tried = new Set<number>();
    for (const d of defects) {
      const vertical = d.direction === 'vertical';
      // Along the cut: its middle first, then its two ends (a short defect at a corner of the
      // grid lies between cells whose windows the middle's do not reach).
      const at = (along: number): [number, number] =>
        vertical ? [d.x, d.y + along] : [d.x + along, d.y];
      const middle = at(Math.floor(d.length / 2));
      if ([middle, at(0), at(d.length - 1)].some(([x, y]) => retryBeside(x, y, vertical, tried)))
        continue;
      // A cut where grid windows overlap is in the held frame of every cell beside it: then a
      // window centred on it, off the grid.
      if (placer.retryAt(middle[0], middle[1], windowScore)) replaced++;
    }
  }
  return replaced;
}

function mod(v: number, n: number): number {
  return ((v % n) + n) % n;
}
