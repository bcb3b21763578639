import sharp from 'sharp';
import { BuiltinEngine } from '../engines/builtin/builtin-engine.js';
import type { Engine, GenerateParams } from '../engines/engine.js';

/**
 * The colour face `face` of a series gets for `seed`: distinct per face (hues 30° apart, 12
 * faces at most), the same on every run of the seed, as a real engine's faces are.
 */
export function faceColour(seed: number, face: number): { r: number; g: number; b: number } {
  const hue = ((seed % 12) * 7 + (face - 1) * 30) % 360;
  const channel = (shift: number) => {
    const k = (shift + hue / 30) % 12;
    return Math.round(255 * (0.5 - 0.4 * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return { r: channel(0), g: channel(8), b: channel(4) };
}

export interface SeriesTestEngine extends Engine {
  /** Every generate call, as the engine got it. */
  readonly calls: GenerateParams[];
}

/**
 * A stand-in engine for the server's side of series (issue 25), until the engines' own series
 * are on this branch: it writes the single image, or every face of `seriesPaths`, as a plain PNG
 * of the asked size in the face's colour (faceColour), at once. HD goes to the builtin engine's
 * Lanczos upscaler, so an HD order of a face is real.
 */
export function seriesTestEngine(): SeriesTestEngine {
  const builtin = new BuiltinEngine({ upscaler: 'lanczos' });
  const calls: GenerateParams[] = [];
  return {
    name: 'series-test',
    calls,
    async generate(params, progress, signal) {
      signal.throwIfAborted();
      calls.push(params);
      const paths = params.seriesPaths ?? [params.outputPath];
      for (const [index, path] of paths.entries()) {
        const background = faceColour(params.seed, index + 1);
        await sharp({
          create: { width: params.width, height: params.height, channels: 3, background },
        })
          .png()
          .toFile(path);
      }
      progress(100);
      return { width: params.width, height: params.height };
    },
    upscale: (params, progress, signal) => builtin.upscale(params, progress, signal),
  };
}
