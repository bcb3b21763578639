/**
 * The triangle grid of tiling and blending (Heitz & Neyret 2018; Deliot & Heitz 2019), made
 * periodic over the output: rows of vertices `b` apart, each row shifted by half a step `a`
 * from the one before, with `a` dividing the width and `b` the height into whole steps (an even
 * number of rows, so the half-step shift comes round too), laid a quarter step to the left so
 * that the output's left and right edges run between vertex columns (the pixels there differ
 * from their neighbours a little less than on a vertex column, where more windows meet; the
 * wrap is then like any other column). Every point of the output lies in one
 * triangle and is given its three vertices and barycentric weights; a vertex is named by its
 * position modulo the output (its key), so the vertices of opposite edges are the same vertices
 * and anything drawn per key tiles.
 */

/** A periodic triangle lattice over a W × H output. */
export interface Lattice {
  W: number;
  H: number;
  /** Step along a row, W / columns. */
  a: number;
  /** Row spacing, H / rows (about a · √3 / 2: triangles nearly equilateral). */
  b: number;
  columns: number;
  /** Even. */
  rows: number;
  /** The lattice's origin lies this far left of the output's: a / 4. */
  shift: number;
}

/**
 * The lattice whose step is as near `side` as whole numbers of steps allow: at least 3 columns
 * and 4 rows, so that no vertex neighbours itself across the wrap.
 */
export function triangleLattice(W: number, H: number, side: number): Lattice {
  const columns = Math.max(3, Math.round(W / side));
  const rows = Math.max(4, 2 * Math.round(H / (side * Math.sqrt(3))));
  const a = W / columns;
  return { W, H, a, b: H / rows, columns, rows, shift: a / 4 };
}

/** The number of distinct vertex keys: 2 · columns half-steps × rows (half of them are used). */
export function keyCount(lattice: Lattice): number {
  return 2 * lattice.columns * lattice.rows;
}

/**
 * The triangle of the point (x, y): its vertices as lattice coordinates (i, j), the vertex at
 * x = (i + j/2) · a − shift, y = j · b (not wrapped), and their barycentric weights, into `out`
 * (i0, j0, w0, i1, j1, w1, i2, j2, w2).
 */
export function locate(lattice: Lattice, x: number, y: number, out: Float64Array): void {
  const v = y / lattice.b;
  const u = (x + lattice.shift) / lattice.a - v / 2;
  const bu = Math.floor(u);
  const bv = Math.floor(v);
  const fu = u - bu;
  const fv = v - bv;
  if (fu + fv < 1) {
    set(out, 0, bu, bv, 1 - fu - fv);
    set(out, 1, bu + 1, bv, fu);
    set(out, 2, bu, bv + 1, fv);
  } else {
    set(out, 0, bu + 1, bv + 1, fu + fv - 1);
    set(out, 1, bu + 1, bv, 1 - fv);
    set(out, 2, bu, bv + 1, 1 - fu);
  }
}

function set(out: Float64Array, k: number, i: number, j: number, w: number): void {
  out[3 * k] = i;
  out[3 * k + 1] = j;
  out[3 * k + 2] = w;
}

/** The vertex (i, j)'s key, the same for every copy of it modulo the output's size. */
export function vertexKey(lattice: Lattice, i: number, j: number): number {
  // Half-steps from the left edge (2i + j) modulo 2 · columns, row modulo rows.
  const half = mod(2 * i + j, 2 * lattice.columns);
  return mod(j, lattice.rows) * 2 * lattice.columns + half;
}

/**
 * The vertex (i, j)'s pixel position (not wrapped), rounded from its wrapped position so that
 * every copy of a vertex lies exactly a whole number of outputs from the others.
 */
export function vertexPixel(lattice: Lattice, i: number, j: number): [number, number] {
  const { W, H, columns, rows } = lattice;
  const half = 2 * i + j;
  const wrappedHalf = mod(half, 2 * columns);
  const wrappedRow = mod(j, rows);
  return [
    Math.round((wrappedHalf * W) / (2 * columns) - lattice.shift) +
      ((half - wrappedHalf) / (2 * columns)) * W,
    Math.round((wrappedRow * H) / rows) + ((j - wrappedRow) / rows) * H,
  ];
}

/** The key's vertex position in the output, 0 ≤ x < W, 0 ≤ y < H (not rounded). */
export function keyPosition(lattice: Lattice, key: number): [number, number] {
  const half = key % (2 * lattice.columns);
  const row = Math.floor(key / (2 * lattice.columns));
  const x = (half * lattice.a) / 2 - lattice.shift;
  return [x < 0 ? x + lattice.W : x, row * lattice.b];
}

function mod(v: number, n: number): number {
  return ((v % n) + n) % n;
}
