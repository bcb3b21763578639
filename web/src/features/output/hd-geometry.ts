import {
  formatOfHdSize,
  HD_DETAIL_WIDTH_KEY,
  hdPixelSize,
  hdPrintSize,
  sizeLabelFromFactors,
  toFiniteNumber,
  type HdImage,
  type HdSizeLabel,
} from '@tessera/contract';

/** What the print dialog and the Detail section know of an HD image: its print and its stages. */
export interface HdGeometry {
  size: HdSizeLabel;
  /** The print's cut size, as the ordered size lays it on the file's sides. */
  widthCm: number;
  heightCm: number;
  /** Pixel widths along the print's width: the LD image, the HD file, the generated detail. */
  ldWidth: number;
  hdWidth: number;
  /** Absent for HD images made before it was recorded (issue 26). */
  detailWidth?: number;
}

/** The geometry of an HD image from its record; undefined when its size is not one of the table's. */
export function hdGeometry(image: HdImage): HdGeometry | undefined {
  const size = sizeLabelFromFactors(image.metadata);
  const format = size && formatOfHdSize(size);
  const pixels = size && hdPixelSize(size);
  if (!size || !format || !pixels) return undefined;
  const print = hdPrintSize(size, pixels.width, pixels.height);
  const detailWidth = toFiniteNumber(image.metadata[HD_DETAIL_WIDTH_KEY]);
  return {
    size,
    widthCm: print.widthCm,
    heightCm: print.heightCm,
    ldWidth: format.width,
    hdWidth: pixels.width,
    ...(detailWidth !== undefined && detailWidth > 0 && { detailWidth }),
  };
}
