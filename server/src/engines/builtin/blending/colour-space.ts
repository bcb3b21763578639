/**
 * The decorrelated colour space the blending works in (Heitz & Neyret 2018, §5.3): the
 * principal axes of the reference's RGB values. Each channel is then Gaussianised on its own;
 * on correlated RGB that would mix colours the reference does not have, on decorrelated axes
 * much less so.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */

/** An orthonormal basis of RGB: `axes` row k is the k-th axis (largest variance first). */
export interface ColourBasis {
  mean: [number, number, number];
  axes: Float64Array;
}

/**
 * The principal axes of the RGB values of the pixels of `data` (RGBA) whose `included` is 1
 * (all when undefined).
 */
export function principalAxes(data: Uint8Array, n: number, included?: Uint8Array): ColourBasis {
  const sum = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (included && included[i] !== 1) continue;
    for (let c = 0; c < 3; c++) sum[c]! += data[i * 4 + c]!;
    count++;
  }
  const mean: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) mean[c] = count > 0 ? sum[c]! / count : 0;
  const cov = new Float64Array(9);
  for (let i = 0; i < n; i++) {
    if (included && included[i] !== 1) continue;
    const d0 = data[i * 4]! - mean[0];
    const d1 = data[i * 4 + 1]! - mean[1];
    const d2 = data[i * 4 + 2]! - mean[2];
    cov[0]! += d0 * d0;
    cov[1]! += d0 * d1;
    cov[2]! += d0 * d2;
    cov[4]! += d1 * d1;
    cov[5]! += d1 * d2;
    cov[8]! += d2 * d2;
  }
  cov[3] = cov[1]!;
  cov[6] = cov[2]!;
  cov[7] = cov[5]!;
  return { mean, axes: eigenvectors(cov) };
}

/** The coordinates of (r, g, b) on the basis's axes, into `out`. */
export function project(basis: ColourBasis, r: number, g: number, b: number, out: Float64Array) {
  const { axes, mean } = basis;
  const d0 = r - mean[0];
  const d1 = g - mean[1];
  const d2 = b - mean[2];
  for (let k = 0; k < 3; k++)
    out[k] = axes[3 * k]! * d0 + axes[3 * k + 1]! * d1 + axes[3 * k + 2]! * d2;
}

/** RGB from coordinates on the basis's axes (the transpose: the basis is orthonormal), into `out`. */
export function unproject(basis: ColourBasis, coords: ArrayLike<number>, out: Float64Array) {
  const { axes, mean } = basis;
  for (let c = 0; c < 3; c++) {
    out[c] =
      mean[c]! + axes[c]! * coords[0]! + axes[3 + c]! * coords[1]! + axes[6 + c]! * coords[2]!;
  }
}

/**
 * The eigenvectors (rows, by decreasing eigenvalue) of a symmetric 3 × 3 matrix, by cyclic
 * Jacobi rotations: a few sweeps bring the off-diagonal to rounding error.
 */
function eigenvectors(matrix: Float64Array): Float64Array {
  const a = Float64Array.from(matrix);
  const v = Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = a[1]! ** 2 + a[2]! ** 2 + a[5]! ** 2;
    if (off < 1e-18 * (a[0]! ** 2 + a[4]! ** 2 + a[8]! ** 2 + 1e-300)) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[3 * p + q]!;
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (a[3 * q + q]! - a[3 * p + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      // A ← Jᵀ A J and V ← V J, J the rotation in the (p, q) plane.
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p]!;
        const akq = a[3 * k + q]!;
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k]!;
        const aqk = a[3 * q + k]!;
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p]!;
        const vkq = v[3 * k + q]!;
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  // V's columns are the eigenvectors; as rows, by decreasing eigenvalue.
  const order = [0, 1, 2].sort((i, j) => a[4 * j]! - a[4 * i]!);
  const rows = new Float64Array(9);
  order.forEach((col, row) => {
    for (let k = 0; k < 3; k++) rows[3 * row + k] = v[3 * k + col]!;
  });
  return rows;
}
