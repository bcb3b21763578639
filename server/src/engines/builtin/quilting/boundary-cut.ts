/**
 * Minimum-error boundary cuts (Efros & Freeman): on each side where a patch overlaps existing
 * pixels, the path of least error through the overlap, and the window mask they make together.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { Canvas, PatchWindow } from './canvas.js';
import { clampInt } from './numeric.js';

/** How far the new patch overlaps already placed pixels on each side of its window (0: none). */
export interface OverlapSides {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Which window pixels take the new patch (1) or keep the canvas (0), into `take` (P × P):
 * a filled pixel is new only if every side's cut says so; unfilled pixels are new.
 */
export function cutMask(
  take: Uint8Array,
  err: Float64Array,
  sides: OverlapSides,
  canvas: Canvas,
  window: PatchWindow,
): void {
  const { P } = window;
  const cut = (o: number, vertical: boolean, far: boolean) => {
    if (!(o > 0)) return undefined;
    const width = clampInt(o, 1, P);
    return minCut(err, P, vertical, far ? P - width : 0, width);
  };
  const cutL = cut(sides.left, true, false);
  const cutR = cut(sides.right, true, true);
  const cutT = cut(sides.top, false, false);
  const cutB = cut(sides.bottom, false, true);
  const { W, filled } = canvas;
  for (let v = 0; v < P; v++) {
    const cy = window.rowMap[v]!;
    for (let u = 0; u < P; u++) {
      const cx = window.colMap[u]!;
      let m = 1;
      if (cy >= 0 && cx >= 0 && filled[cy * W + cx] === 1) {
        if (
          (cutL && u < cutL[v]!) ||
          (cutR && u > cutR[v]!) ||
          (cutT && v < cutT[u]!) ||
          (cutB && v > cutB[u]!)
        )
          m = 0;
      }
      take[v * P + u] = m;
    }
  }
}

/**
 * A minimum-error path through a strip of the window's error surface: `vertical` strips span
 * columns [start, start + width) and every row, and the path gives one column per row;
 * horizontal strips span rows [start, start + width) and the path gives one row per column.
 */
export function minCut(
  err: Float64Array,
  P: number,
  vertical: boolean,
  start: number,
  width: number,
): Int32Array {
  const at = vertical
    ? (along: number, across: number) => err[along * P + start + across]!
    : (along: number, across: number) => err[(start + across) * P + along]!;
  const acc = new Float64Array(P * width);
  for (let k = 0; k < width; k++) acc[k] = at(0, k);
  for (let a = 1; a < P; a++) {
    const row = a * width;
    const prev = row - width;
    for (let k = 0; k < width; k++) {
      let m = acc[prev + k]!;
      if (k > 0 && acc[prev + k - 1]! < m) m = acc[prev + k - 1]!;
      if (k < width - 1 && acc[prev + k + 1]! < m) m = acc[prev + k + 1]!;
      acc[row + k] = at(a, k) + m;
    }
  }
  const path = new Int32Array(P);
  let best = 0;
  const last = (P - 1) * width;
  for (let k = 1; k < width; k++) if (acc[last + k]! < acc[last + best]!) best = k;
  path[P - 1] = best;
  for (let a = P - 2; a >= 0; a--) {
    const row = a * width;
    let k = best;
    if (best > 0 && acc[row + best - 1]! < acc[row + k]!) k = best - 1;
    if (best < width - 1 && acc[row + best + 1]! < acc[row + k]!) k = best + 1;
    best = k;
    path[a] = best;
  }
  for (let a = 0; a < P; a++) path[a] = path[a]! + start;
  return path;
}
