/**
 * A scale word's effect: the reference is worked on larger or smaller than quilting's working
 * size by the word's factor, so its features (bricks, grains, veins) come out that many times
 * larger or smaller in the output, which copies the reference's pixels at their size.
 */
import { MIN_WORKING_SIDE, workingSize } from '../quilting/synthesize.js';

/**
 * The working size of a `referenceWidth × referenceHeight` upload for this output, scaled by
 * `factor`: never more than twice the upload's own pixels a side (beyond that an enlargement
 * only blurs), and never below {@link MIN_WORKING_SIDE} on the short side (room for patches).
 */
export function scaledWorkingSize(
  referenceWidth: number,
  referenceHeight: number,
  outputWidth: number,
  outputHeight: number,
  factor: number,
): { width: number; height: number } {
  const base = workingSize(referenceWidth, referenceHeight, outputWidth, outputHeight);
  if (!(factor > 0) || factor === 1) return base;
  const most = Math.min((2 * referenceWidth) / base.width, (2 * referenceHeight) / base.height);
  const least = MIN_WORKING_SIDE / Math.min(base.width, base.height);
  const scale = Math.max(least, Math.min(most, factor));
  return {
    width: Math.max(1, Math.round(base.width * scale)),
    height: Math.max(1, Math.round(base.height * scale)),
  };
}
