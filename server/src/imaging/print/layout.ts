/**
 * Where a print file's pixels come from (issue 26, part 1): the cut size and the bleed in output
 * pixels (the contract's printPixelSize), and the HD rows each vertical bleed is made of.
 */
import { printPixelSize, type PrintPixelSize } from '@tessera/contract';
import type { PhysicalSize } from '../physical-size.js';

/**
 * How the bleed continues the image past the cut line: a seamless texture wraps (the bleed is
 * the opposite edge, as the tile's neighbour would be), anything else is mirrored.
 */
export type BleedMode = 'wrap' | 'mirror';

export interface PrintLayout extends PrintPixelSize {
  bleedRight: number;
  bleedBottom: number;
  /**
   * HD rows joined above the HD for its top bleed: the bleed's own at the HD's scale, and the
   * resampling kernel's reach beyond it (lanczos3: 3 pixels of the larger grid).
   */
  sourceRowsAbove: number;
}

/** The print file of an HD image `source` px large printing `print` cm at `dpi` with `bleedMm`. */
export function printLayout(
  source: { width: number; height: number },
  print: PhysicalSize,
  dpi: number,
  bleedMm: number,
): PrintLayout {
  const size = printPixelSize(print, dpi, bleedMm);
  const bleedRight = size.width - size.cutWidth - size.bleedLeft;
  const bleedBottom = size.height - size.cutHeight - size.bleedTop;
  const scale = source.height / size.cutHeight;
  const reach = Math.ceil(size.bleedTop * scale + 3 * Math.max(1, scale)) + 2;
  return {
    ...size,
    bleedRight,
    bleedBottom,
    sourceRowsAbove: size.bleedTop === 0 ? 0 : Math.min(source.height, reach),
  };
}
