// Reading uploaded images safely (SPEC §5): the format by content, the size from the header alone
// (nothing is decoded before the pixel limit is checked), and 8-bit RGBA pixels for every
// accepted format. libvips as shipped with sharp cannot read BMP, so BMP is decoded here.
import fsp from 'node:fs/promises';
import zlib from 'node:zlib';
import {
  TEXTS,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_PIXELS,
  validateUploadPixels,
} from '@tessera/contract';
import sharp from 'sharp';
import type { RawImage } from './raw-image.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export type UploadCheck =
  { ok: true; format: ImageFormat; width: number; height: number } | { ok: false; message: string };

export interface DecodeOptions {
  /** Refuse images with more pixels than this before decoding them; default UPLOAD_MAX_PIXELS. */
  maxPixels?: number;
}

/** Enough for the headers of PNG, GIF, WebP and BMP. */
const HEAD_BYTES = 1024;
/** A JPEG's size is in its SOF segment, after its EXIF/ICC/XMP segments (each at most 64 KB). */
const JPEG_HEAD_BYTES = 4 * 1024 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The info header sizes of every BMP variant, known or read (see BMP_READ_HEADER_SIZES). */
const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/** The image format of a file by its first bytes (at least 18 for BMP); undefined if none of ours. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | undefined {
  const at = (offset: number, bytes: readonly number[]) =>
    head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) => {
    const codes = Array.from(text, (c) => c.charCodeAt(0));
    return at(offset, codes);
  };
  if (at(0, PNG_SIGNATURE)) return 'png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  // "BM" alone is too weak (a text may start with it): the info header size must be a real one.
  if (ascii(0, 'BM') && head.length >= 18 && BMP_HEADER_SIZES.has(view(head).getUint32(14, true))) {
    return 'bmp';
  }
  return undefined;
}

/**
 * The format and size of an image file from its header alone: the pixels are never decoded, so a
 * file that claims 20000x20000 answers at once. Width and height are as displayed (a JPEG's EXIF
 * orientation applied). Undefined when there is no header to read: not an image of ours,
 * truncated, garbage, or a BMP variant `decodeToRaw` cannot read. A missing file throws.
 */
export async function readImageHeader(path: string): Promise<ImageHeader | undefined> {
  const head = await readHead(path, HEAD_BYTES);
  const format = sniffImageFormat(head);
  return format && headerOf(path, head, format);
}

async function headerOf(
  path: string,
  head: Uint8Array,
  format: ImageFormat,
): Promise<ImageHeader | undefined> {
  const size = await sizeFromHeader(path, head, format);
  return size && { format, ...size };
}

async function sizeFromHeader(
  path: string,
  head: Uint8Array,
  format: ImageFormat,
): Promise<{ width: number; height: number } | undefined> {
  switch (format) {
    case 'png':
      return pngSize(head);
    case 'gif':
      return gifSize(head);
    case 'webp':
      return webpSize(head);
    case 'bmp':
      try {
        const { width, height } = parseBmpHeader(head);
        return { width, height };
      } catch {
        return undefined;
      }
    case 'jpeg':
      // libjpeg reads the markers up to the first scan and stops: a header read, not a decode.
      try {
        const info = await sharp(await readHead(path, JPEG_HEAD_BYTES), {
          limitInputPixels: false,
        }).metadata();
        const { width, height } = info.autoOrient;
        return width > 0 && height > 0 ? { width, height } : undefined;
      } catch {
        return undefined;
      }
  }
}

/** IHDR, which must come first: size, a valid depth/colour pair, and its CRC. */
function pngSize(head: Uint8Array): { width: number; height: number } | undefined {
  if (head.length < 33) return undefined;
  const v = view(head);
  if (v.getUint32(8) !== 13 || v.getUint32(12) !== 0x49484452 /* IHDR */) return undefined;
  const width = v.getUint32(16);
  const height = v.getUint32(20);
  const depth = v.getUint8(24);
  const colourType = v.getUint8(25);
  const depths: Record<number, number[]> = {
    0: [1, 2, 4, 8, 16],
    2: [8, 16],
    3: [1, 2, 4, 8],
    4: [8, 16],
    6: [8, 16],
  };
  const valid =
    width > 0 &&
    height > 0 &&
    width <= 0x7fffffff &&
    height <= 0x7fffffff &&
    depths[colourType]?.includes(depth) === true &&
    v.getUint8(26) === 0 &&
    v.getUint8(27) === 0 &&
    v.getUint8(28) <= 1 &&
    v.getUint32(29) === zlib.crc32(head.subarray(12, 29)) >>> 0;
  return valid ? { width, height } : undefined;
}

/** The logical screen of the GIF header. */
function gifSize(head: Uint8Array): { width: number; height: number } | undefined {
  if (head.length < 13) return undefined;
  const width = view(head).getUint16(6, true);
  const height = view(head).getUint16(8, true);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The first chunk of a WebP: VP8X (canvas), VP8L (lossless) or VP8 (lossy key frame). */
function webpSize(head: Uint8Array): { width: number; height: number } | undefined {
  if (head.length < 30) return undefined;
  const v = view(head);
  const chunk = String.fromCharCode(...head.subarray(12, 16));
  if (chunk === 'VP8X') {
    const width = v.getUint16(24, true) + (v.getUint8(26) << 16) + 1;
    const height = v.getUint16(27, true) + (v.getUint8(29) << 16) + 1;
    return { width, height };
  }
  if (chunk === 'VP8L' && v.getUint8(20) === 0x2f) {
    const bits = v.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  const keyFrame = (v.getUint8(20) & 1) === 0;
  const startCode = v.getUint8(23) === 0x9d && v.getUint8(24) === 0x01 && v.getUint8(25) === 0x2a;
  if (chunk === 'VP8 ' && keyFrame && startCode) {
    const width = v.getUint16(26, true) & 0x3fff;
    const height = v.getUint16(28, true) & 0x3fff;
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  return undefined;
}

/**
 * SPEC §5 on an upload already on disk, with the contract's texts: the format by content, at most
 * UPLOAD_MAX_BYTES, a readable header, and at most UPLOAD_MAX_PIXELS read from that header (the
 * pixels are not decoded here). `bytes` is the file's size as received.
 */
export async function validateStoredUpload(path: string, bytes: number): Promise<UploadCheck> {
  const head = await readHead(path, HEAD_BYTES);
  const format = sniffImageFormat(head);
  // The name's extension was checked first (SPEC §5): content of no known format is unreadable.
  if (!format) return { ok: false, message: TEXTS.uploadUnreadable };
  // Written as "not within" so that NaN is refused too.
  if (!(bytes <= UPLOAD_MAX_BYTES)) return { ok: false, message: TEXTS.uploadTooLarge };
  const header = await headerOf(path, head, format);
  if (!header) return { ok: false, message: TEXTS.uploadUnreadable };
  const message = validateUploadPixels(header.width, header.height);
  return message ? { ok: false, message } : { ok: true, ...header };
}

/**
 * The image as a sharp pipeline, orientation applied, for any accepted format (BMP decoded here
 * and handed over as raw RGBA). Refuses more than `maxPixels` before decoding. The file is read
 * into memory first: libvips caches loads by file name, which a replaced file would defeat.
 */
export async function openImage(path: string, options: DecodeOptions = {}): Promise<sharp.Sharp> {
  const maxPixels = options.maxPixels ?? UPLOAD_MAX_PIXELS;
  const data = await fsp.readFile(path);
  const format = sniffImageFormat(data);
  if (!format) throw new Error('Not an image in an accepted format (png, jpeg, gif, webp, bmp)');
  if (format === 'bmp') {
    const { data: pixels, width, height } = decodeBmp(data, maxPixels);
    return sharp(pixels, { raw: { width, height, channels: 4 } });
  }
  return sharp(data, { limitInputPixels: maxPixels }).autoOrient();
}

/** 8-bit RGBA pixels of any accepted format, EXIF orientation applied (first frame of animations). */
export async function decodeToRaw(path: string, options: DecodeOptions = {}): Promise<RawImage> {
  const maxPixels = options.maxPixels ?? UPLOAD_MAX_PIXELS;
  const data = await fsp.readFile(path);
  const format = sniffImageFormat(data);
  if (format === 'bmp') return decodeBmp(data, maxPixels);
  if (!format) throw new Error('Not an image in an accepted format (png, jpeg, gif, webp, bmp)');
  const { data: pixels, info } = await sharp(data, { limitInputPixels: maxPixels })
    .autoOrient()
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Decoded to ${info.channels} channels, not RGBA`);
  return { data: pixels, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------------------------
// BMP. No npm decoder was fit to use (bmp-ts, decode-bmp, fast-bmp: no top-down rows or no bit
// fields or no palettes, the pixel offset ignored, memory allocated from an unchecked header), so
// this reads the variants people save —
// BITMAPINFOHEADER (and V2/V3), V4 and V5; 1/4/8-bit palettes, 16 and 32-bit (BI_RGB and
// BI_BITFIELDS / BI_ALPHABITFIELDS), 24-bit; bottom-up and top-down — and refuses the rest.

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
  const v = view(data);
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

  const v = view(data);
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
    const pv = view(palette);
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

// ---------------------------------------------------------------------------------------------

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The first `length` bytes of a file (fewer if it is shorter). */
async function readHead(path: string, length: number): Promise<Uint8Array> {
  const handle = await fsp.open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
