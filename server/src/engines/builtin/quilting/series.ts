/**
 * A series of faces (issue 25): N images of one design — the same reference, options and scale,
 * each face quilted with its own seed — that differ visibly. Seamless, every face keeps face 1's
 * outer ring (frame.ts): face 1 tiles with itself, so face i's right edge meets face j's left
 * edge exactly as face 1's right edge meets its own left edge, and any face joins any face on
 * all four sides; the faces can be laid in any order. Face 1 is exactly the single image of the
 * same options and seed.
 */
import type { RawImage } from '../../../imaging/raw-image.js';
import { mulberry32 } from '../prng.js';
import type { SynthesisOptions } from './options.js';
import { synthesizeTraced, type TracedSynthesis } from './synthesize.js';

/** The seed of face `face` (1-based) of the series seeded `seed`: face 1 keeps the seed. */
export function faceSeed(seed: number, face: number): number {
  if (face <= 1) return seed >>> 0;
  return Math.floor(mulberry32((seed ^ Math.imul(face, 0x9e3779b9)) >>> 0).next() * 2 ** 32);
}

/**
 * Synthesizes `faces` faces. `onProgress` receives the fraction of the whole series done,
 * rising from 0 to 1; `onFace` each face as it is finished (1-based), before the next starts.
 */
export function synthesizeSeries(
  reference: RawImage,
  options: SynthesisOptions,
  faces: number,
  onProgress?: (fraction: number) => void,
  onFace?: (face: number, image: TracedSynthesis) => void,
): TracedSynthesis[] {
  if (!Number.isInteger(faces) || faces < 1) throw new RangeError('faces must be at least 1');
  const done: TracedSynthesis[] = [];
  let first: TracedSynthesis | undefined;
  for (let face = 1; face <= faces; face++) {
    const report = (fraction: number) => onProgress?.((face - 1 + fraction) / faces);
    const faceOptions = { ...options, seed: faceSeed(options.seed, face) };
    const earlier = done.slice(1).map((f) => f.source);
    const frame = options.seamless && first ? { ...first, earlier } : undefined;
    const result = synthesizeTraced(reference, faceOptions, report, { repair: true }, frame);
    first ??= result;
    done.push(result);
    onFace?.(face, result);
  }
  return done;
}
