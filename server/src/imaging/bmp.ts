// BMP, which libvips as shipped with sharp cannot read. No npm decoder was fit to use (bmp-ts,
// decode-bmp, fast-bmp: no top-down rows or no bit fields or no palettes, the pixel offset
// ignored, memory allocated from an unchecked header), so this reads the variants people save —
// BITMAPINFOHEADER (and V2/V3), V4 and V5; 1/4/8-bit palettes, 16 and 32-bit (BI_RGB and
// BI_BITFIELDS / BI_ALPHABITFIELDS), 24-bit; bottom-up and top-down — and refuses the rest.
import { UPLOAD_MAX_PIXELS } from '@tessera/contract';
import type { RawImage } from './raw-image.js';
import { byteView } from './byte-view.js';

export class BmpError extends Error {
  override name = 'BmpError';
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;
/** BITMAPINFOHEADER, its V2/V3 extensions (masks in the header), V4 and V5. */
const BMP_READ_HEADER_SIZES = new Set([40, 52, 56, 108, 124]);

export interface BmpLayout {
  width: number;
  height: number;
  topDown: boolean;
  bitCount: number;
  /** Red, green, blue, alpha masks (16 and 32-bit); an alpha mask of 0 means opaque. */
  masks: [number, number, number, number];
  paletteOffset: number;
  paletteEntries: number;
  dataOffset: number;
  /** Bytes per row, rows padded to 4 bytes. */
  stride: number;
}

/** Reads the file and info headers (not the pixels); throws BmpError for what it cannot read. */
export function parseBmpHeader(data: Uint8Array): BmpLayout {
  const v = byteView(data);
  if (data.length < 18 || v.getUint16(0, true) !== 0x4d42) throw new BmpError('Not a BMP file');
  const headerSize = v.getUint32(14, true);
  if (!BMP_READ_HEADER_SIZES.has(headerSize)) {
    throw new BmpError(
      `Unsupported BMP header of ${headerSize} bytes: only BITMAPINFOHEADER, V4 and V5 are read`,
    );
  }
  if (data.length < 14 + headerSize) throw new BmpError('Truncated BMP header');
  const width = v.getInt32(18, true);
  const rawHeight = v.getInt32(22, true);
  const bitCount = v.getUint16(28, true);
  const compression = v.getUint32(30, true);
  if (width <= 0 || rawHeight === 0 || rawHeight === -0x80000000) {
    throw new BmpError(`Invalid BMP size ${width}x${rawHeight}`);
  }
  if (![1, 4, 8, 16, 24, 32].includes(bitCount)) {
    throw new BmpError(`Unsupported BMP depth: ${bitCount} bits per pixel`);
  }
  const bitfields = compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS;
  if (compression !== BI_RGB && !(bitfields && (bitCount === 16 || bitCount === 32))) {
    throw new BmpError(
      `Unsupported BMP compression ${compression} at ${bitCount} bits (RLE, JPEG and PNG are not read)`,
    );
  }

  let masks: [number, number, number, number] =
    bitCount === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0xff000000];
  let paletteOffset = 14 + headerSize;
  if (bitfields) {
    // The masks start at byte 54: inside a V2+ header (V3+ has the alpha mask too), or right
    // after a plain BITMAPINFOHEADER, before the palette.
    const inHeader = headerSize >= 56 ? 4 : headerSize === 52 ? 3 : 0;
    const count = compression === BI_ALPHABITFIELDS ? 4 : Math.max(3, inHeader);
    paletteOffset += Math.max(0, count - inHeader) * 4;
    if (data.length < 54 + count * 4) throw new BmpError('Truncated BMP header');
    masks = [
      v.getUint32(54, true),
      v.getUint32(58, true),
      v.getUint32(62, true),
      count === 4 ? v.getUint32(66, true) : 0,
    ];
    for (const mask of masks) maskShape(mask);
  }

  const maxEntries = bitCount <= 8 ? 1 << bitCount : 0;
  const used = v.getUint32(46, true);
  const paletteEntries = bitCount <= 8 ? (used > 0 && used < maxEntries ? used : maxEntries) : 0;
  const dataOffset = v.getUint32(10, true);
  if (dataOffset < paletteOffset) throw new BmpError('Invalid BMP pixel data offset');
  return {
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bitCount,
    masks,
    paletteOffset,
    paletteEntries,
    dataOffset,
    stride: Math.floor((bitCount * width + 31) / 32) * 4,
  };
}

/** A contiguous bit mask's shift and width; throws for one with holes. */
function maskShape(mask: number): { shift: number; bits: number } {
  if (mask === 0) return { shift: 0, bits: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (shift + bits < 32 && ((mask >>> (shift + bits)) & 1) === 1) bits++;
  if (shift + bits < 32 && mask >>> (shift + bits) !== 0) {
    throw new BmpError(`Unsupported BMP bit mask 0x${(mask >>> 0).toString(16)}`);
  }
  return { shift, bits };
}

/** Decodes a BMP to 8-bit RGBA, top row first. Throws BmpError for what it cannot read. */
export function decodeBmp(data: Uint8Array, maxPixels = UPLOAD_MAX_PIXELS): RawImage {
  const layout = parseBmpHeader(data);
  const { width, height, bitCount, stride, dataOffset } = layout;
  if (width * height > maxPixels) {
    throw new BmpError(`BMP of ${width}x${height} exceeds ${maxPixels} pixels`);
  }
  const rowBytes = Math.ceil((bitCount * width) / 8);
  if (dataOffset + stride * (height - 1) + rowBytes > data.length) {
    throw new BmpError('Truncated BMP pixel data');
  }
  if (layout.paletteOffset + layout.paletteEntries * 4 > data.length) {
    throw new BmpError('Truncated BMP palette');
  }

  const v = byteView(data);
  const out = new Uint8Array(width * height * 4);
  const rowStart = (y: number) => dataOffset + (layout.topDown ? y : height - 1 - y) * stride;

  if (bitCount === 24) {
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0, p = rowStart(y); x < width; x++, p += 3, o += 4) {
        out[o] = v.getUint8(p + 2);
        out[o + 1] = v.getUint8(p + 1);
        out[o + 2] = v.getUint8(p);
        out[o + 3] = 255;
      }
    }
  } else if (bitCount <= 8) {
    // Indexes past the palette read as opaque black.
    const palette = new Uint8Array(256 * 4);
    for (let i = 0; i < 256; i++) palette[i * 4 + 3] = 255;
    for (let i = 0; i < layout.paletteEntries; i++) {
      const p = layout.paletteOffset + i * 4;
      palette[i * 4] = v.getUint8(p + 2);
      palette[i * 4 + 1] = v.getUint8(p + 1);
      palette[i * 4 + 2] = v.getUint8(p);
    }
    const pv = byteView(palette);
    const perByte = 8 / bitCount;
    const indexMask = (1 << bitCount) - 1;
    for (let y = 0, o = 0; y < height; y++) {
      const start = rowStart(y);
      for (let x = 0; x < width; x++, o += 4) {
        const byte = v.getUint8(start + Math.floor(x / perByte));
        const index = (byte >> (8 - bitCount * ((x % perByte) + 1))) & indexMask;
        out[o] = pv.getUint8(index * 4);
        out[o + 1] = pv.getUint8(index * 4 + 1);
        out[o + 2] = pv.getUint8(index * 4 + 2);
        out[o + 3] = 255;
      }
    }
  } else {
    const [red, green, blue, alpha] = layout.masks.map((mask) => {
      const { shift, bits } = maskShape(mask);
      return { mask, shift, scale: bits === 0 ? 0 : 255 / (2 ** bits - 1) };
    }) as [MaskChannel, MaskChannel, MaskChannel, MaskChannel];
    const bytesPerPixel = bitCount / 8;
    let seenAlpha = false;
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0, p = rowStart(y); x < width; x++, p += bytesPerPixel, o += 4) {
        const pixel = bitCount === 32 ? v.getUint32(p, true) : v.getUint16(p, true);
        out[o] = channel(pixel, red);
        out[o + 1] = channel(pixel, green);
        out[o + 2] = channel(pixel, blue);
        const a = channel(pixel, alpha);
        out[o + 3] = a;
        if (a !== 0) seenAlpha = true;
      }
    }
    // As browsers do: an alpha channel that is zero everywhere was never meant as one (32-bit
    // BI_RGB files keep a "reserved" byte there), so the image is opaque.
    if (alpha.mask === 0 || !seenAlpha) {
      for (let o = 3; o < out.length; o += 4) out[o] = 255;
    }
  }
  return { data: out, width, height };
}

interface MaskChannel {
  mask: number;
  shift: number;
  scale: number;
}

function channel(pixel: number, { mask, shift, scale }: MaskChannel): number {
  return Math.round(((pixel & mask) >>> shift) * scale);
}
