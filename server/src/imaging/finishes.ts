// What each finish word of a prompt (issue 27) does, in one table: to the colours (the builtin
// engine's prompt passes, engines/builtin/prompts/finish.ts) and to the roughness map (the
// material maps, imaging/material-maps/maps.ts, reading the finish an image's metadata records).
import type { FinishEntry } from '@tessera/contract';

export type FinishId = FinishEntry['id'];

/** Where a finish puts the roughness map: plain roughness r (0..1) becomes low + (high − low)·r. */
export interface RoughnessRange {
  low: number;
  high: number;
}

/** The roughness map as it is made without a finish. */
export const PLAIN_ROUGHNESS: RoughnessRange = { low: 0, high: 1 };

export interface FinishEffect {
  /** Luminance contrast around the mean (OKLab L), × this. */
  contrast: number;
  /** Chroma (OKLab a, b), × this. */
  saturation: number;
  /** Blacks lifted: L becomes lift + (1 − lift) · L. */
  lift: number;
  /** Low-frequency mottling of L, ± this (seeded). */
  mottle: number;
  /** Local contrast: L + this × (L − L blurred over a few pixels). */
  localContrast: number;
  roughness: RoughnessRange;
}

const NONE = { lift: 0, mottle: 0, localContrast: 0 };

export const FINISH_EFFECTS: Readonly<Record<FinishId, FinishEffect>> = {
  // Polished stone: deeper colour and contrast, a mirror-like surface.
  polished: {
    ...NONE,
    contrast: 1.18,
    saturation: 1.2,
    roughness: { low: 0.04, high: 0.3 },
  },
  glossy: { ...NONE, contrast: 1.15, saturation: 1.25, roughness: { low: 0.02, high: 0.22 } },
  // Honed: ground flat, not polished: a little softer, a satin sheen.
  honed: { ...NONE, contrast: 0.92, saturation: 0.95, roughness: { low: 0.35, high: 0.65 } },
  matte: { ...NONE, contrast: 0.85, saturation: 0.8, roughness: { low: 0.62, high: 0.95 } },
  // Weathered: faded colour, greyed blacks, blotches of wear, a dull surface.
  weathered: {
    contrast: 0.9,
    saturation: 0.65,
    lift: 0.08,
    mottle: 0.05,
    localContrast: 0,
    roughness: { low: 0.6, high: 1 },
  },
  // Rough: the grain stands out; the surface scatters light.
  rough: {
    ...NONE,
    contrast: 1,
    saturation: 1,
    localContrast: 0.8,
    roughness: { low: 0.7, high: 1 },
  },
};

/** The roughness range of a finish (the plain map's without one). */
export function roughnessRange(finish: FinishId | undefined): RoughnessRange {
  return finish ? FINISH_EFFECTS[finish].roughness : PLAIN_ROUGHNESS;
}
