/**
 * An image as raw 8-bit RGBA pixels, row by row. Pixels are imaging's: the decoders make it, and
 * the engines import it from here.
 */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
}
