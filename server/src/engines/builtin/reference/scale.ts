/**
 * The texture's scale across the picture: on a floor seen at an angle its features get smaller
 * towards the far end, and a plane's scale in a pinhole picture is an affine function of the
 * position (it grows linearly from the horizon). A band's feature size is its luminance's
 * standard deviation over its mean gradient magnitude (for an edge or a wave alike, proportional
 * to the features' size, whatever their contrast). The picture is cut into bands along each axis,
 * and a line fitted to their feature sizes says how much the scale changes from the first band to
 * the last, and how steadily (R²): a texture seen from above changes little, and not steadily.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Numeric kernels over typed arrays: every index is in bounds by construction. */
import { sobel, type Grey } from './grey.js';

const BANDS = 6;
/** Sobel leaves the border at zero: those pixels are not counted. */
const BORDER = 2;
/** Ratios are capped here: beyond it the far end has no features left to measure. */
const MAX_RATIO = 20;

export interface ScaleDrift {
  /** The factor by which the texture's scale changes from one end to the other (≥ 1). */
  ratio: number;
  /** How well a steady change explains the bands (R² of the fit, 0..1). */
  steadiness: number;
  axis: 'vertical' | 'horizontal';
}

/** The axis along which the scale changes most steadily and strongly. */
export function scaleDrift(grey: Grey): ScaleDrift {
  const { magnitude } = sobel(grey);
  const rows = fitBands(grey, magnitude, 'vertical');
  const columns = fitBands(grey, magnitude, 'horizontal');
  // The axis whose change counts most once weighed by how steady it is.
  const score = (d: ScaleDrift) => Math.log(d.ratio) * d.steadiness;
  return score(rows) >= score(columns) ? rows : columns;
}

function fitBands(grey: Grey, magnitude: Float32Array, axis: ScaleDrift['axis']): ScaleDrift {
  const { data, width: W, height: H } = grey;
  const along = axis === 'vertical' ? H : W;
  const sizes: number[] = [];
  const centres: number[] = [];
  for (let band = 0; band < BANDS; band++) {
    const from = Math.max(BORDER, Math.floor((band * along) / BANDS));
    const to = Math.min(along - BORDER, Math.floor(((band + 1) * along) / BANDS));
    let n = 0;
    let sum = 0;
    let sum2 = 0;
    let grad = 0;
    for (let a = from; a < to; a++) {
      for (let b = BORDER; b < (axis === 'vertical' ? W : H) - BORDER; b++) {
        const p = axis === 'vertical' ? a * W + b : b * W + a;
        const v = data[p]!;
        sum += v;
        sum2 += v * v;
        grad += magnitude[p]!;
        n++;
      }
    }
    if (n === 0) continue;
    const mean = sum / n;
    const std = Math.sqrt(Math.max(0, sum2 / n - mean * mean));
    // A flat band has no scale to measure.
    if (std < 1) continue;
    sizes.push(std / Math.max(1e-6, grad / n));
    centres.push((from + to) / 2 / along);
  }
  if (sizes.length < 3) return { ratio: 1, steadiness: 0, axis };
  const { intercept, slope, r2 } = lineFit(centres, sizes);
  const first = intercept + slope * centres[0]!;
  const last = intercept + slope * centres[centres.length - 1]!;
  const small = Math.min(first, last);
  // The fitted size reaching zero inside the picture: as steep as a change can be measured.
  const ratio = small > 0 ? Math.max(first, last) / small : MAX_RATIO;
  return { ratio: Math.min(MAX_RATIO, ratio), steadiness: r2, axis };
}

/** Least squares y = a + b x, and R². */
function lineFit(
  xs: readonly number[],
  ys: readonly number[],
): { intercept: number; slope: number; r2: number } {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (xs[k]! - mx) ** 2;
    sxy += (xs[k]! - mx) * (ys[k]! - my);
    syy += (ys[k]! - my) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  const r2 = syy > 0 && sxx > 0 ? (sxy * sxy) / (sxx * syy) : 0;
  return { intercept: my - slope * mx, slope, r2 };
}
