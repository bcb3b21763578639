// What an image file's first bytes tell (SPEC §5): its format by content, its size from the
// header alone (nothing is decoded, so the pixel limit is checked before any decoding), and
// whether it passes as an upload.
import fsp from 'node:fs/promises';
import zlib from 'node:zlib';
import { TEXTS, UPLOAD_MAX_BYTES, validateUploadPixels } from '@tessera/contract';
import sharp from 'sharp';
import { parseBmpHeader } from './bmp.js';
import { byteView } from './byte-view.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export type UploadCheck =
  { ok: true; format: ImageFormat; width: number; height: number } | { ok: false; message: string };

/** Enough for the headers of PNG, GIF, WebP and BMP. */
const HEAD_BYTES = 1024;
/** A JPEG's size is in its SOF segment, after its EXIF/ICC/XMP segments (each at most 64 KB). */
const JPEG_HEAD_BYTES = 4 * 1024 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The info header sizes of every BMP variant, known or read (bmp.ts reads fewer). */
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
  if (
    ascii(0, 'BM') &&
    head.length >= 18 &&
    BMP_HEADER_SIZES.has(byteView(head).getUint32(14, true))
  ) {
    return 'bmp';
  }
  return undefined;
}

/**
 * The format and size of an image file from its header alone: the pixels are never decoded, so a
 * file that claims 20000x20000 answers at once. Width and height are as displayed (a JPEG's EXIF
 * orientation applied). Undefined when there is no header to read: not an image of ours,
 * truncated, garbage, or a BMP variant `decodeToRaw` (bmp.ts) cannot read. A missing file throws.
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
  const v = byteView(head);
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
  const width = byteView(head).getUint16(6, true);
  const height = byteView(head).getUint16(8, true);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The first chunk of a WebP: VP8X (canvas), VP8L (lossless) or VP8 (lossy key frame). */
function webpSize(head: Uint8Array): { width: number; height: number } | undefined {
  if (head.length < 30) return undefined;
  const v = byteView(head);
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
