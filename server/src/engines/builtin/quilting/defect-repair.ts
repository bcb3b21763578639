/**
 * Repair of cut defects (defects.ts) after the first pass and the re-synthesis of the worst
 * cuts, before Poisson blending: the patches whose windows hold a defect above the bound are
 * searched again, held on all four sides, and a new patch is kept only if its window's worst
 * defect falls; in rounds, until none is above the bound or the rounds are spent.
 */
import type { PatchWindow } from './canvas.js';
import { findDefects, wholeView, type DefectInput } from './defects.js';
import type { PatchPlacer } from './placement.js';

/**
 * The bound the repair works to, on the lines crossing the cuts before blending (defects.ts with
 * `steps: false`; Poisson blending evens out the steps across the cuts afterwards). Measured on
 * the six seam references (docs/engines.md, "Defects that repeat"): the stretches above it are
 * the broken lines one sees; below it, the cuts of the textures' own noise.
 */
export const DEFECT_BOUND = 2;
/**
 * The bound on a finished output's stripe measure (steps and lines, after blending): the repaired
 * outputs of the six seam references stay under it, plain quilting goes above it on the stone
 * tiles, pebbles and photo-like noise (a mortar joint or an edge ending at a cut scores 5 to 20).
 */
export const STRIPE_BOUND = 4;
/** Rounds of repair at most: each finds the defects again over the whole output. */
export const DEFECT_ROUNDS = 3;

/** What the repair needs besides the placer: the reference, its energy, the stretch length. */
export type RepairInput = Omit<DefectInput, 'data' | 'source' | 'W' | 'H' | 'seamless'>;

/** Runs the rounds; returns how many patches were replaced. */
export function repairDefects(
  placer: PatchPlacer,
  reference: RepairInput,
  bound = DEFECT_BOUND,
  rounds = DEFECT_ROUNDS,
): number {
  const { canvas } = placer;
  const input: DefectInput = {
    ...reference,
    data: canvas.data,
    source: canvas.source,
    W: canvas.W,
    H: canvas.H,
    seamless: canvas.seamless,
    steps: false,
  };
  const whole = wholeView(canvas.W, canvas.H, canvas.seamless);
  const windowScore = (window: PatchWindow) =>
    findDefects(input, { cols: window.colMap, rows: window.rowMap, wrap: false }).worst;
  let replaced = 0;
  for (let round = 0; round < rounds; round++) {
    const { defects } = findDefects(input, whole, bound);
    if (defects.length === 0) break;
    // One retry per cell and round, the strongest defect's cell first.
    const cells = new Set<number>();
    for (const d of defects) {
      const half = Math.floor(d.length / 2);
      const [x, y] = d.direction === 'vertical' ? [d.x, d.y + half] : [d.x + half, d.y];
      cells.add(placer.cellNear(x % canvas.W, y % canvas.H));
    }
    let changed = false;
    for (const cell of cells) {
      if (placer.retry(cell, windowScore)) {
        replaced++;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return replaced;
}
