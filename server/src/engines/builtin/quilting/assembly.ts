/** Pasting a chosen patch into the canvas behind its cuts. */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { Canvas, PatchWindow } from './canvas.js';

/**
 * Copies the source patch at (sx, sy) into the window where `take` says so, feathering the
 * cuts over 3×3 pixels so that they do not show as hard edges; marks the pixels filled.
 */
export function paste(
  canvas: Canvas,
  window: PatchWindow,
  take: Uint8Array,
  ref: Uint8Array,
  refGrad: Int16Array,
  Wr: number,
  sx: number,
  sy: number,
): void {
  const { P } = window;
  const { W, data, filled, source, grad } = canvas;
  for (let v = 0; v < P; v++) {
    const cy = window.rowMap[v]!;
    if (cy < 0) continue;
    for (let u = 0; u < P; u++) {
      const cx = window.colMap[u]!;
      if (cx < 0) continue;
      const at = cy * W + cx;
      let a = 1;
      if (filled[at] === 1) {
        let sum = 0;
        let n = 0;
        for (let b = Math.max(0, v - 1); b <= Math.min(P - 1, v + 1); b++) {
          for (let c = Math.max(0, u - 1); c <= Math.min(P - 1, u + 1); c++) {
            sum += take[b * P + c]!;
            n++;
          }
        }
        a = sum / n;
        if (a === 0) continue;
      }
      if (take[v * P + u] === 1) {
        const s = (sy + v) * Wr + sx + u;
        source[at] = s;
        grad[at * 2] = refGrad[s * 2]!;
        grad[at * 2 + 1] = refGrad[s * 2 + 1]!;
      }
      const c = at * 4;
      const p = ((sy + v) * Wr + sx + u) * 4;
      if (a === 1) {
        data[c] = ref[p]!;
        data[c + 1] = ref[p + 1]!;
        data[c + 2] = ref[p + 2]!;
      } else {
        data[c] = Math.round(data[c]! + (ref[p]! - data[c]!) * a);
        data[c + 1] = Math.round(data[c + 1]! + (ref[p + 1]! - data[c + 1]!) * a);
        data[c + 2] = Math.round(data[c + 2]! + (ref[p + 2]! - data[c + 2]!) * a);
      }
      data[c + 3] = 255;
      filled[at] = 1;
    }
  }
}
