/**
 * A series of faces by blending (issue 25's series, for stochastic materials). Seamless: each
 * face's lattice vertices within one triangle step (plus a pixel) of its edges draw with the
 * job's seed, the same in every face, and the others with the face's own seed
 * (quilting/series.ts's faceSeed). A pixel's triangle reaches at most one step from it, so every
 * pixel a face shares an edge with any other face is blended from the shared vertices and its
 * own: laid in any order, faces make one continuous blend, with no join anywhere, while their
 * insides differ. Not seamless: each face blends with its own seed. Face 1 is exactly the single
 * image of the same options and seed.
 */
import type { RawImage } from '../../../imaging/raw-image.js';
import type { SynthesisOptions } from '../quilting/options.js';
import { faceSeed } from '../quilting/series.js';
import { prepareReference } from './blend.js';
import { blendWith } from './kernel.js';
import { keyPosition, type Lattice } from './lattice.js';
import { planBlending } from './plan.js';
import { drawVertices } from './vertices.js';

/**
 * Blends `faces` faces, or undefined when the mask leaves no room for a window (then quilt
 * instead). `onProgress` receives the fraction of the whole series done; `onFace` each face
 * as it is finished (1-based), before the next starts.
 */
export function blendSeries(
  reference: RawImage,
  options: SynthesisOptions,
  faces: number,
  onProgress?: (fraction: number) => void,
  onFace?: (face: number, image: RawImage) => void,
): RawImage[] | undefined {
  if (!Number.isInteger(faces) || faces < 1) throw new RangeError('faces must be at least 1');
  const plan = planBlending(reference, options);
  if (!plan) return undefined;
  const prepared = prepareReference(reference, plan);
  const { lattice, region, turnChance } = plan;
  const seed = options.seed >>> 0;
  const done: RawImage[] = [];
  for (let face = 1; face <= faces; face++) {
    const own = faceSeed(seed, face);
    const seedOf = (key: number) => (options.seamless && onEdge(lattice, key) ? seed : own);
    const draws = drawVertices(lattice, region, seedOf, turnChance);
    const report = (fraction: number) => onProgress?.((face - 1 + fraction) / faces);
    const image = blendWith(prepared, plan, draws, report);
    done.push(image);
    onFace?.(face, image);
  }
  return done;
}

/** Whether the key's vertex lies within one step (and a pixel) of the output's edges. */
export function onEdge(lattice: Lattice, key: number): boolean {
  const [x, y] = keyPosition(lattice, key);
  const { W, H, a, b } = lattice;
  return Math.min(x, W - x) <= a + 1 || Math.min(y, H - y) <= b + 1;
}
