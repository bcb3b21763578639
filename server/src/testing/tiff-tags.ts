import fs from 'node:fs/promises';

/** The TIFF tags the print tests check, by number (TIFF 6.0). */
export const TIFF_TAG = {
  bitsPerSample: 258,
  compression: 259,
  photometric: 262,
  samplesPerPixel: 277,
  xResolution: 282,
  yResolution: 283,
  resolutionUnit: 296,
  predictor: 317,
} as const;

/** Compression codes: 5 LZW, 8 Deflate (Adobe), 32946 Deflate (old). */
export const TIFF_COMPRESSION = { lzw: 5, deflate: 8 } as const;

/**
 * The first value of each tag of a classic TIFF's first directory (rationals as numbers), read
 * from the header and the directory alone.
 */
export async function readTiffTags(file: string): Promise<Map<number, number>> {
  const handle = await fs.open(file);
  try {
    const read = async (offset: number, length: number) => {
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, offset);
      return buffer;
    };
    const head = await read(0, 8);
    const little = head.toString('latin1', 0, 2) === 'II';
    const u16 = (b: Buffer, at: number) => (little ? b.readUInt16LE(at) : b.readUInt16BE(at));
    const u32 = (b: Buffer, at: number) => (little ? b.readUInt32LE(at) : b.readUInt32BE(at));
    if (u16(head, 2) !== 42) throw new Error('not a classic TIFF');
    const directory = u32(head, 4);
    const count = u16(await read(directory, 2), 0);
    const entries = await read(directory + 2, count * 12);
    const tags = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const at = i * 12;
      const tag = u16(entries, at);
      const type = u16(entries, at + 2);
      const n = u32(entries, at + 4);
      if (type === 3) {
        // SHORT: the first value, in place when it fits, else at the offset.
        const where =
          n <= 2 ? entries.subarray(at + 8, at + 12) : await read(u32(entries, at + 8), 2);
        tags.set(tag, u16(where, 0));
      } else if (type === 4) {
        tags.set(tag, u32(entries, at + 8));
      } else if (type === 5) {
        const rational = await read(u32(entries, at + 8), 8);
        tags.set(tag, u32(rational, 0) / u32(rational, 4));
      }
    }
    return tags;
  } finally {
    await handle.close();
  }
}
