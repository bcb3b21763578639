/**
 * The reuse term of the patch search: what a candidate pays for copying source pixels that an
 * already placed patch copied to another place of the output. Quilting favours the few source
 * regions that match anything (a closed loop of vein in plain ground); copied again and again
 * they show as the same stone within a tile, and on marble as the same loop and its stubs many
 * times (issue 27, part 6). The term raises the candidate's cost by a share (patch-search.ts), so
 * it decides among the candidates that fit and never makes one that breaks the lines win.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import { torusDelta } from './torus.js';

/** What the placed patches copied, and what a shared source pixel costs. */
export interface ReuseTerm {
  /**
   * Per placed patch, four numbers: its source origin (x, y) and the source origin that would
   * continue its copy at the patch being searched (x, y). Sharing pixels with a continuation
   * puts them back where they were, which repeats nothing.
   */
  copies: number[];
  /** The cost's rise per patch-sized area copied twice (a share of the area, its share). */
  weight: number;
  /** The patch side. */
  P: number;
  /** Closer than this to a continuation on both axes counts as that continuation. */
  spacing: number;
}

/** The reuse term of the source patch at (sx, sy): the weight times the area shared, in patches. */
export function reuseCost(term: ReuseTerm | undefined, sx: number, sy: number): number {
  if (!term || term.weight === 0) return 0;
  const { copies, P, spacing } = term;
  let shared = 0;
  for (let k = 0; k < copies.length; k += 4) {
    const dx = Math.abs(sx - copies[k]!);
    const dy = Math.abs(sy - copies[k + 1]!);
    if (dx >= P || dy >= P) continue;
    if (Math.abs(sx - copies[k + 2]!) < spacing && Math.abs(sy - copies[k + 3]!) < spacing)
      continue;
    shared += (1 - dx / P) * (1 - dy / P);
  }
  return term.weight * shared;
}

/** The grid's placed patches as {@link ReuseTerm.copies}, seen from cell (i, j). */
export function placedCopies(
  grid: { xs: Int32Array; ys: Int32Array; W: number; H: number; seamless: boolean },
  srcX: Int32Array,
  srcY: Int32Array,
  i: number,
  j: number,
): number[] {
  const { xs, ys, W, H, seamless } = grid;
  const nx = xs.length;
  const copies: number[] = [];
  for (let n = 0; n < srcX.length; n++) {
    const ni = n % nx;
    const nj = Math.floor(n / nx);
    if (srcX[n]! < 0 || (ni === i && nj === j)) continue;
    const ddx = seamless ? torusDelta(xs[i]! - xs[ni]!, W) : xs[i]! - xs[ni]!;
    const ddy = seamless ? torusDelta(ys[j]! - ys[nj]!, H) : ys[j]! - ys[nj]!;
    copies.push(srcX[n]!, srcY[n]!, srcX[n]! + ddx, srcY[n]! + ddy);
  }
  return copies;
}

/** The term for cell (i, j) of a grid with patch side `P` and weight `reuseWeight` (0: none). */
export function reuseTerm(
  plan: Parameters<typeof placedCopies>[0] & { P: number; reuseWeight: number },
  srcX: Int32Array,
  srcY: Int32Array,
  i: number,
  j: number,
): ReuseTerm | undefined {
  const { P, reuseWeight } = plan;
  if (reuseWeight <= 0) return undefined;
  const copies = placedCopies(plan, srcX, srcY, i, j);
  return { copies, weight: reuseWeight, P, spacing: Math.max(2, Math.round(P / 8)) };
}
