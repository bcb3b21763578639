/**
 * The layout term of the patch search: what a candidate pays for lying away from where the
 * reference's layout (shifted by the seeded offset, laid under the output) wants the patch.
 */

/**
 * An oriented reference's grain (unit vector along its lines) and the pull across it: across
 * the grain there is no slack, so every patch keeps the layout's phase (structure.ts).
 */
export interface Grain {
  tx: number;
  ty: number;
  acrossPull: number;
}

/**
 * The cost of lying `(dx, dy)` from the layout's position: `pull` per squared pixel beyond
 * `slack` on each axis; with a grain, beyond `slack` along it and from the first pixel across it.
 */
export function layoutCost(
  query: { slack: number; pull: number; grain?: Grain },
  dx: number,
  dy: number,
): number {
  const { grain, slack, pull } = query;
  if (!grain) {
    const ex = Math.max(0, Math.abs(dx) - slack);
    const ey = Math.max(0, Math.abs(dy) - slack);
    return pull * (ex * ex + ey * ey);
  }
  const along = Math.max(0, Math.abs(dx * grain.tx + dy * grain.ty) - slack);
  const across = dy * grain.tx - dx * grain.ty;
  return pull * along * along + grain.acrossPull * across * across;
}
