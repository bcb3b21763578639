/**
 * The patch grid's geometry, on a plane or on a torus (seamless): where patches start, how a
 * window's pixels map onto the canvas, and the framing of a finished torus.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */

/** Patch origins along one axis of `length` pixels, for side `P` and stride `S`. */
export function gridPositions(length: number, P: number, S: number, seamless: boolean): Int32Array {
  if (seamless) {
    const n = Math.max(2, Math.ceil(length / S));
    return Int32Array.from({ length: n }, (_, k) => Math.round((k * length) / n));
  }
  if (length <= P) return Int32Array.of(0);
  const n = Math.ceil((length - P) / S) + 1;
  return Int32Array.from({ length: n }, (_, k) => Math.round((k * (length - P)) / (n - 1)));
}

/** Canvas coordinate of window offset `v` (wrapped on a torus, −1 beyond a plane's edge). */
export function wrapOrClip(v: number, length: number, wrap: boolean): number {
  if (wrap) return ((v % length) + length) % length;
  return v < length ? v : -1;
}

/** The representative of `d` modulo `length` nearest zero. */
export function torusDelta(d: number, length: number): number {
  let r = ((d % length) + length) % length;
  if (r > length / 2) r -= length;
  return r;
}

/**
 * A torus has no edge: any column and row may serve as the frame's edge without changing how
 * the result tiles. Rolls the image so that it starts at the smoothest ones, so the frame never
 * runs along a feature's edge.
 */
export function frameTorus(
  data: Uint8Array,
  source: Int32Array,
  W: number,
  H: number,
): { data: Uint8Array; source: Int32Array } {
  const { column, row } = smoothestLines(data, W, H);
  const sourceRolled = new Int32Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      sourceRolled[y * W + x] = source[((y + row) % H) * W + ((x + column) % W)]!;
    }
  }
  return { data: roll(data, W, H, column, row), source: sourceRolled };
}

/**
 * The column x whose pixels differ least from those of column x − 1 (modulo W), and the row y
 * likewise: rolled to x = 0 and y = 0, those pairs become the wrap-around edges.
 */
export function smoothestLines(
  data: Uint8Array,
  W: number,
  H: number,
): { column: number; row: number } {
  const columns = new Float64Array(W);
  const rows = new Float64Array(H);
  for (let y = 0; y < H; y++) {
    const up = ((y + H - 1) % H) * W;
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      const left = (y * W + ((x + W - 1) % W)) * 4;
      const above = (up + x) * 4;
      for (let c = 0; c < 3; c++) {
        columns[x] = columns[x]! + Math.abs(data[p + c]! - data[left + c]!);
        rows[y] = rows[y]! + Math.abs(data[p + c]! - data[above + c]!);
      }
    }
  }
  let column = 0;
  for (let x = 1; x < W; x++) if (columns[x]! < columns[column]!) column = x;
  let row = 0;
  for (let y = 1; y < H; y++) if (rows[y]! < rows[row]!) row = y;
  return { column, row };
}

export function roll(data: Uint8Array, W: number, H: number, dx: number, dy: number): Uint8Array {
  const out = new Uint8Array(data.length);
  const row = W * 4;
  const split = ((dx % W) + W) % W;
  for (let y = 0; y < H; y++) {
    const from = ((y + dy) % H) * row;
    const to = y * row;
    out.set(data.subarray(from + split * 4, from + row), to);
    out.set(data.subarray(from, from + split * 4), to + row - split * 4);
  }
  return out;
}
