/**
 * Re-synthesis of the worst patches: after the first pass, the patches whose cuts still cost
 * most are searched again, held on all four sides by what surrounds them, and replaced when the
 * new cuts cost less.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { Canvas, PatchWindow } from './canvas.js';

/** The window's canvas state, to put back when a re-synthesised patch is no better. */
export interface WindowState {
  data: Uint8Array;
  filled: Uint8Array;
  source: Int32Array;
  grad: Int16Array;
}

export function saveWindow(canvas: Canvas, window: PatchWindow, into?: WindowState): WindowState {
  const { P } = window;
  const state = into ?? {
    data: new Uint8Array(P * P * 4),
    filled: new Uint8Array(P * P),
    source: new Int32Array(P * P),
    grad: new Int16Array(P * P * 2),
  };
  eachPixel(canvas, window, (k, at) => {
    state.data.set(canvas.data.subarray(at * 4, at * 4 + 4), k * 4);
    state.filled[k] = canvas.filled[at]!;
    state.source[k] = canvas.source[at]!;
    state.grad[k * 2] = canvas.grad[at * 2]!;
    state.grad[k * 2 + 1] = canvas.grad[at * 2 + 1]!;
  });
  return state;
}

export function restoreWindow(canvas: Canvas, window: PatchWindow, state: WindowState): void {
  eachPixel(canvas, window, (k, at) => {
    canvas.data.set(state.data.subarray(k * 4, k * 4 + 4), at * 4);
    canvas.filled[at] = state.filled[k]!;
    canvas.source[at] = state.source[k]!;
    canvas.grad[at * 2] = state.grad[k * 2]!;
    canvas.grad[at * 2 + 1] = state.grad[k * 2 + 1]!;
  });
}

/** Marks the window's core (all but a `margin`-wide frame) as not filled, to be placed anew. */
export function clearCore(canvas: Canvas, window: PatchWindow, margin: number): void {
  const { P } = window;
  eachPixel(canvas, window, (k, at) => {
    const u = k % P;
    const v = (k - u) / P;
    if (u >= margin && v >= margin && u < P - margin && v < P - margin) canvas.filled[at] = 0;
  });
}

/**
 * The cuts inside a window: the summed squared RGB difference across the neighbour pairs whose
 * pixels were not copied from neighbouring reference pixels, and their number.
 */
export function windowCutCost(
  canvas: Canvas,
  window: PatchWindow,
  Wr: number,
): { sum: number; pairs: number } {
  const { P, colMap, rowMap } = window;
  const { W, data, source } = canvas;
  let sum = 0;
  let pairs = 0;
  const pair = (p: number, q: number, step: number) => {
    const sp = source[p]!;
    if (sp >= 0 && source[q] === sp + step && (step !== 1 || sp % Wr !== Wr - 1)) return;
    let e = 0;
    for (let c = 0; c < 3; c++) {
      const d = data[p * 4 + c]! - data[q * 4 + c]!;
      e += d * d;
    }
    sum += e;
    pairs++;
  };
  for (let v = 0; v < P; v++) {
    const cy = rowMap[v]!;
    if (cy < 0) continue;
    for (let u = 0; u < P; u++) {
      const cx = colMap[u]!;
      if (cx < 0) continue;
      const p = cy * W + cx;
      if (u + 1 < P && colMap[u + 1]! >= 0) pair(p, cy * W + colMap[u + 1]!, 1);
      if (v + 1 < P && rowMap[v + 1]! >= 0) pair(p, rowMap[v + 1]! * W + cx, Wr);
    }
  }
  return { sum, pairs };
}

function eachPixel(
  canvas: Canvas,
  window: PatchWindow,
  visit: (k: number, at: number) => void,
): void {
  const { P, colMap, rowMap } = window;
  for (let v = 0; v < P; v++) {
    const cy = rowMap[v]!;
    if (cy < 0) continue;
    for (let u = 0; u < P; u++) {
      const cx = colMap[u]!;
      if (cx >= 0) visit(v * P + u, cy * canvas.W + cx);
    }
  }
}
