/**
 * Which synthesis makes a job's images, and making them: the settings' `synthesis` ('auto' or
 * absent: blending when the reference is stochastic, quilting otherwise; 'quilting' or
 * 'blending' forces it), with quilting whenever the mask leaves blending no room. The worker
 * calls these two; the mode used goes into the image's metadata.
 */
import type { SynthesisUsed } from '@tessera/contract';
import type { RawImage } from '../../../imaging/raw-image.js';
import type { SynthesisOptions } from '../quilting/options.js';
import { synthesizeSeries } from '../quilting/series.js';
import { synthesize } from '../quilting/synthesize.js';
import { planBlending } from './plan.js';
import { blendSeries } from './series.js';
import { isStochastic, type StochasticFigures } from './stochastic.js';

export interface SynthesisChoice {
  used: SynthesisUsed;
  /** The classifier's figures, when 'auto' asked for them. */
  figures?: StochasticFigures;
}

/** The synthesis for `reference` (at working size) and the job's options. */
export function chooseSynthesis(reference: RawImage, options: SynthesisOptions): SynthesisChoice {
  const asked = options.synthesis ?? 'auto';
  if (asked === 'quilting') return { used: 'quilting' };
  let figures: StochasticFigures | undefined;
  if (asked === 'auto') {
    const decision = isStochastic(reference);
    figures = decision.figures;
    if (!decision.stochastic) return { used: 'quilting', figures };
  }
  // A mask whose opaque region holds no window of the least step: quilting shrinks its patches.
  if (!planBlending(reference, options)) return { used: 'quilting', ...(figures && { figures }) };
  return { used: 'blending', ...(figures && { figures }) };
}

/**
 * Makes the `faces` images (1: a single image) with the synthesis `used`; `onProgress`
 * receives the fraction done, `onFace` each face as it is finished (1-based).
 */
export function synthesizeFaces(
  reference: RawImage,
  options: SynthesisOptions,
  faces: number,
  used: SynthesisUsed,
  onProgress: (fraction: number) => void,
  onFace: (face: number, image: RawImage) => void,
): void {
  if (used === 'blending' && blendSeries(reference, options, faces, onProgress, onFace)) return;
  if (faces <= 1) {
    onFace(1, synthesize(reference, options, onProgress));
    return;
  }
  synthesizeSeries(reference, options, faces, onProgress, (face, { image }) => onFace(face, image));
}
