/**
 * Can this reference work? (issue 27, part 5.) The builtin engine copies patches of the
 * reference as they are, so a photo of a floor at an angle (joints converging, tiles shrinking
 * towards the far end) comes back as V-shapes and broken lines, and a large object comes back in
 * pieces all over. This measures the reference and flags what it cannot do well; the rules and
 * their thresholds are these (docs/engines.md, "References that cannot work"):
 *
 * - perspective, any of: PERSPECTIVE_LINES or more long segments meet at one vanishing point with
 *   their directions fanning out over PERSPECTIVE_SPREAD_DEGREES or more (convergence.ts); a
 *   family of SPACING_LINES or more parallel lines whose spacing changes by SPACING_RATIO or more,
 *   steadily (spacing.ts); the texture's scale changes by SCALE_RATIO or more from end to end,
 *   steadily (scale.ts).
 * - object: a connected region of OBJECT_AREA or more of the picture whose local mean stands more
 *   than OBJECT_CONTRAST times the texture's own variation from the median (object.ts).
 * - lighting: the lighting drift (lighting.ts's model) spans LIGHTING_RANGE levels or more and
 *   explains LIGHTING_SHARE or more of the local means' variance (drift.ts).
 */
import type { ReferenceFigures, ReferenceWarningCode } from '@tessera/contract';
import type { RawImage } from '../../../imaging/raw-image.js';
import { findConvergence } from './convergence.js';
import { removeDrift } from './drift.js';
import { analysisLuminance, blur } from './grey.js';
import { findSegments } from './lines.js';
import { findObject } from './object.js';
import { scaleDrift } from './scale.js';
import { recedingSpacing } from './spacing.js';

/** The lines and the local means are read at about this long side; the scale at SCALE_SIDE. */
export const ANALYSIS_SIDE = 320;
export const SCALE_SIDE = 640;
export const PERSPECTIVE_LINES = 4;
export const PERSPECTIVE_SPREAD_DEGREES = 10;
/** A segment counts when at least this share of the picture's short side long. */
export const SEGMENT_MIN_SHARE = 0.3;
/** ... across gaps of at most this share (where joints cross, the edge turns for a while). */
export const SEGMENT_GAP_SHARE = 0.08;
export const SPACING_LINES = 5;
export const SPACING_RATIO = 1.6;
export const SPACING_STEADINESS = 0.8;
export const SCALE_RATIO = 1.6;
export const SCALE_STEADINESS = 0.9;
/** Local means are taken over a blur of this share of the short side. */
export const LOCAL_MEAN_SHARE = 1 / 10;
export const OBJECT_CONTRAST = 4;
export const OBJECT_AREA = 0.02;
export const LIGHTING_RANGE = 64;
export const LIGHTING_SHARE = 0.85;

/** The figures and the warnings' codes (the texts are the contract's). */
export interface ReferenceVerdict {
  figures: ReferenceFigures;
  warnings: ReferenceWarningCode[];
}

export function analyseReference(image: RawImage): ReferenceVerdict {
  const grey = analysisLuminance(image, ANALYSIS_SIDE);
  const { width, height } = grey;
  const short = Math.min(width, height);
  const drift = removeDrift(grey, Math.max(1, Math.round(short * LOCAL_MEAN_SHARE)));
  // A pixel's worth of smoothing: grain and JPEG noise out, joints kept.
  const smooth = blur(drift.flat, 1);
  const segments = findSegments(
    smooth,
    SEGMENT_MIN_SHARE * short,
    Math.max(4, Math.round(short * SEGMENT_GAP_SHARE)),
  );
  const convergence = findConvergence(segments, width, height, PERSPECTIVE_SPREAD_DEGREES);
  const spacing = recedingSpacing(segments);
  // The scale is read finer: far features are the first to be averaged away.
  const scale = scaleDrift(analysisLuminance(image, SCALE_SIDE));
  const object = findObject(drift, OBJECT_CONTRAST);
  const figures: ReferenceFigures = {
    analysedWidth: width,
    analysedHeight: height,
    segments: segments.length,
    convergingLines: convergence.lines,
    convergenceSpreadDegrees: round(convergence.spreadDegrees, 1),
    vanishingPoint: convergence.point
      ? { x: round(convergence.point.x, 3), y: round(convergence.point.y, 3) }
      : null,
    parallelLines: spacing.lines,
    spacingRatio: round(spacing.ratio, 3),
    spacingSteadiness: round(spacing.steadiness, 3),
    scaleRatio: round(scale.ratio, 3),
    scaleSteadiness: round(scale.steadiness, 3),
    scaleAxis: scale.axis,
    objectArea: round(object.area, 4),
    objectContrast: round(object.peakContrast, 2),
    lightingRange: round(drift.range, 1),
    lightingShare: round(drift.explained, 3),
  };
  return { figures, warnings: judge(figures) };
}

/** The rules above, on the figures. */
export function judge(figures: ReferenceFigures): ReferenceWarningCode[] {
  const warnings: ReferenceWarningCode[] = [];
  const converging = figures.convergingLines >= PERSPECTIVE_LINES;
  const receding =
    figures.parallelLines >= SPACING_LINES &&
    figures.spacingRatio >= SPACING_RATIO &&
    figures.spacingSteadiness >= SPACING_STEADINESS;
  const shrinking =
    figures.scaleRatio >= SCALE_RATIO && figures.scaleSteadiness >= SCALE_STEADINESS;
  if (converging || receding || shrinking) warnings.push('perspective');
  if (figures.objectArea >= OBJECT_AREA) warnings.push('object');
  if (figures.lightingRange >= LIGHTING_RANGE && figures.lightingShare >= LIGHTING_SHARE) {
    warnings.push('lighting');
  }
  return warnings;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
