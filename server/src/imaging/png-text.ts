import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Adds an iTXt chunk (UTF-8 text under a keyword) to a PNG, right after its header chunk, where
 * readers such as sharp's `comments` find it. Engines keep an image's generation parameters so.
 */
export function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('Not a PNG');
  if (!/^[\x20-\x7e]{1,79}$/.test(keyword)) throw new Error('Invalid PNG text keyword');
  // keyword, NUL, compression flag 0, method 0, empty language tag NUL, empty translated keyword NUL
  const data = Buffer.concat([
    Buffer.from(keyword, 'latin1'),
    Buffer.from([0, 0, 0, 0, 0]),
    Buffer.from(text, 'utf8'),
  ]);
  return withChunkAfterHeader(png, 'iTXt', data);
}

/** Inserts a chunk of `type` holding `data` right after a PNG's header chunk (IHDR). */
export function withChunkAfterHeader(png: Buffer, type: string, data: Buffer): Buffer {
  const typeBytes = Buffer.from(type, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([typeBytes, data])));
  const headerEnd = 8 + 4 + 4 + 13 + 4; // signature + IHDR (length, type, 13 bytes, CRC)
  return Buffer.concat([
    png.subarray(0, headerEnd),
    length,
    typeBytes,
    data,
    crc,
    png.subarray(headerEnd),
  ]);
}
