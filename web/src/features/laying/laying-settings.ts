// The laying preview's settings, their defaults per format, and the limits of each field.
import { hdSizesForFormat, type HdSizeLabel, type OutputFormatName } from '@tessera/contract';
import { PATTERNS_BY_FORMAT, type LayingPattern } from './patterns';
import type { RotationMode } from './placement';

export interface LayingSettings {
  tileSize: string;
  pattern: LayingPattern;
  jointMm: number;
  groutColour: string;
  rotation: RotationMode;
  roomWidthM: number;
  roomDepthM: number;
  seed: number;
}

export const DEFAULT_SETTINGS: LayingSettings = {
  tileSize: '',
  pattern: 'stack',
  jointMm: 3,
  groutColour: '#b9b3a8',
  rotation: 'none',
  roomWidthM: 4,
  roomDepthM: 3,
  seed: 1,
};

export const LIMITS = {
  jointMm: { min: 0, max: 20, step: 0.5 },
  roomM: { min: 0.5, max: 20, step: 0.1 },
  seed: { min: 0, max: 999_999 },
} as const;

export const EXPORT_WIDTHS = [2000, 4000] as const;

/** The size a tile maker sells most of each format, when the format offers it. */
const COMMON_SIZE: Partial<Record<OutputFormatName, HdSizeLabel>> = {
  Square: '60x60',
  Rectangle: '60x120',
};

/** The settings made valid for the format: a size, a pattern and turns that it offers. */
export function settingsForFormat(settings: LayingSettings, format: OutputFormatName | undefined) {
  const sizes: readonly string[] = hdSizesForFormat(format);
  const patterns = format ? PATTERNS_BY_FORMAT[format] : (['stack'] as const);
  const rotations: readonly RotationMode[] =
    format === 'Square' ? ['none', 'half', 'quarter'] : ['none', 'half'];
  const fallbackSize = (format && COMMON_SIZE[format]) ?? sizes[0] ?? '';
  return {
    sizes,
    patterns,
    rotations,
    tileSize: sizes.includes(settings.tileSize) ? settings.tileSize : fallbackSize,
    pattern: patterns.includes(settings.pattern) ? settings.pattern : 'stack',
    rotation: rotations.includes(settings.rotation) ? settings.rotation : 'none',
  };
}

/** '60x120' → [60, 120] (cm); undefined when it is no size. */
export function tileCmOf(label: string): [number, number] | undefined {
  const [a, b] = label.split('x').map(Number);
  return a && b ? [a, b] : undefined;
}

/** A field's number, kept within its limits; the last good value when it is not a number. */
export function clampNumber(text: string, min: number, max: number, last: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return last;
  return Math.min(max, Math.max(min, value));
}
