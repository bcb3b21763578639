// How the maps of one image are made: its size, its edges, and the strengths of the filters,
// from the image's size and the height settings its owner chose (issue 26, part 4).
import { DEFAULT_HEIGHT_SETTINGS, type HeightSettings } from '@tessera/contract';
import { roughnessRange, type FinishId, type RoughnessRange } from '../finishes.js';

/**
 * How the filters read past the image's edges: `wrap` takes the pixels of the opposite edge (a
 * seamless texture, whose maps must tile too), `clamp` repeats the edge pixel.
 */
export type EdgeMode = 'wrap' | 'clamp';

export interface MapSettings {
  width: number;
  height: number;
  edges: EdgeMode;
  /** How far a height step of the whole range over one pixel tilts the normal. */
  normalStrength: number;
  /** Radius in pixels of the blur the occlusion compares the height against. */
  occlusionRadius: number;
  /** How dark a crevice as deep as the whole range makes the occlusion, per unit of depth. */
  occlusionStrength: number;
  /** Dark is high: the height is 1 − the smoothed luminance, and the relief turns over. */
  invertHeight: boolean;
  /** Where the roughness lies: the finish the image's prompts name (issue 27), or 0..1. */
  roughness: RoughnessRange;
}

/**
 * The settings for an image of this size: filters scale with it so LD and HD maps look alike.
 * The height's strength scales the relief the normals and the occlusion show; at strength 1,
 * not inverted, the maps are those made before the height settings existed, byte for byte; and
 * without a finish, so is the roughness.
 */
export function settingsFor(
  width: number,
  height: number,
  edges: EdgeMode,
  heightSettings: HeightSettings = DEFAULT_HEIGHT_SETTINGS,
  finish?: FinishId,
): MapSettings {
  // Filters are tuned on a 1024 px LD image; an HD image of the same texture has gentler slopes
  // per pixel and wider crevices, in proportion to its size.
  const scale = Math.max(1, Math.max(width, height) / 1024);
  return {
    width,
    height,
    edges,
    normalStrength: 6 * scale * heightSettings.strength,
    // Capped: the margin rows each strip carries grow with it (memory, docs/engines.md).
    occlusionRadius: Math.min(32, Math.round(6 * scale)),
    occlusionStrength: 5 * heightSettings.strength,
    invertHeight: heightSettings.invert,
    roughness: roughnessRange(finish),
  };
}

/** Rows each strip needs above and below its own: the 3×3 smoothing, the gradient, two boxes. */
export function marginRows(settings: MapSettings): number {
  return 2 * settings.occlusionRadius + 3;
}

/** The image row (or column) a filter reads for index `i`, which may lie outside [0, size). */
export function edgeIndex(i: number, size: number, edges: EdgeMode): number {
  if (i >= 0 && i < size) return i;
  if (edges === 'clamp') return i < 0 ? 0 : size - 1;
  return ((i % size) + size) % size;
}
