import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { TEXTS, UPLOAD_MAX_BYTES } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from './raw-image.js';
import { tempDir } from '../testing/fixtures.js';
import { decodeBmp } from './bmp.js';
import { decodeToRaw, openImage } from './decode.js';
import { readImageHeader, sniffImageFormat, validateStoredUpload } from './image-header.js';

let dir: string;
let removeDir: () => void;
beforeAll(() => {
  ({ dir, remove: removeDir } = tempDir('tessera-decode-'));
});
afterAll(() => removeDir());

let counter = 0;
/** Writes bytes to a fresh file in the temp folder and answers its path. */
async function file(data: Uint8Array | string, name = `f${counter}.bin`): Promise<string> {
  const target = path.join(dir, `${counter++}-${name}`);
  await fsp.writeFile(target, data);
  return target;
}

/** Deterministic RGBA pixels; `alpha` false makes every pixel opaque. */
function pattern(width: number, height: number, alpha = true): RawImage {
  const data = new Uint8Array(width * height * 4);
  let seed = width * 31 + height;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = seed >>> 24;
  }
  if (!alpha) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  return { data, width, height };
}

/** A few colours only, so that palettes and GIF hold them exactly. */
function fewColours(width: number, height: number, colours: number): RawImage {
  const palette = Array.from({ length: colours }, (_, i) => [
    (i * 73 + 20) % 256,
    (i * 151 + 7) % 256,
    (i * 31 + 200) % 256,
  ]);
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const [r, g, b] = palette[(p * 7 + Math.floor(p / width)) % colours] ?? [0, 0, 0];
    data.set([r ?? 0, g ?? 0, b ?? 0, 255], p * 4);
  }
  return { data, width, height };
}

function rawSharp(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

// ---- A small BMP encoder: the decoder is checked against files written byte by byte. ----------

interface BmpOptions {
  bitCount: 1 | 4 | 8 | 16 | 24 | 32;
  topDown?: boolean;
  /** 40 = BITMAPINFOHEADER, 108 = V4, 124 = V5. */
  headerSize?: 40 | 52 | 56 | 108 | 124;
  compression?: 0 | 3 | 6;
  /** Red, green, blue, alpha masks for 16 and 32 bits. */
  masks?: [number, number, number, number];
  /** 32-bit BI_RGB: what goes in the fourth byte (the image's alpha, or 0 as "reserved"). */
  reservedByte?: 'alpha' | 'zero';
}

function maskBits(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

/** What a channel value becomes once stored in `max + 1` levels and read back to 8 bits. */
function quantize(value: number, max: number): number {
  return Math.round(Math.round((value * max) / 255) * (255 / max));
}

function encodeBmp(image: RawImage, options: BmpOptions): { file: Buffer; expected: RawImage } {
  const { width, height, data } = image;
  const { bitCount, topDown = false, headerSize = 40, compression = 0 } = options;
  const masks =
    options.masks ??
    (bitCount === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0xff0000, 0xff00, 0xff, 0xff000000]);
  const expected = new Uint8Array(data.length);

  let palette: number[][] = [];
  const indexes: number[] = [];
  if (bitCount <= 8) {
    const keys = new Map<string, number>();
    for (let p = 0; p < width * height; p++) {
      const rgb = [...data.subarray(p * 4, p * 4 + 3)];
      const key = rgb.join();
      if (!keys.has(key)) {
        keys.set(key, palette.length);
        palette.push(rgb);
      }
      indexes.push(keys.get(key) ?? 0);
      expected.set([...rgb, 255], p * 4);
    }
    if (palette.length > 1 << bitCount) throw new Error('too many colours for the depth');
    // Pad the palette so that unused entries are present, as most writers do for 1 and 4 bits.
    if (bitCount < 8)
      palette = [...palette, ...Array(2 ** bitCount - palette.length).fill([0, 0, 0])];
  }

  const stride = Math.floor((bitCount * width + 31) / 32) * 4;
  const extraMasks =
    headerSize === 40 && compression === 3 ? 12 : headerSize === 40 && compression === 6 ? 16 : 0;
  const dataOffset = 14 + headerSize + extraMasks + palette.length * 4;
  const buf = Buffer.alloc(dataOffset + stride * height);
  buf.write('BM', 0, 'ascii');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(dataOffset, 10);
  buf.writeUInt32LE(headerSize, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(topDown ? -height : height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(bitCount, 28);
  buf.writeUInt32LE(compression, 30);
  buf.writeUInt32LE(stride * height, 34);
  buf.writeInt32LE(2835, 38);
  buf.writeInt32LE(2835, 42);
  buf.writeUInt32LE(bitCount <= 8 ? palette.length : 0, 46);
  const [rm = 0, gm = 0, bm = 0, am = 0] = masks;
  if (headerSize >= 52 || extraMasks > 0) {
    buf.writeUInt32LE(rm >>> 0, 54);
    buf.writeUInt32LE(gm >>> 0, 58);
    buf.writeUInt32LE(bm >>> 0, 62);
    if (headerSize >= 56 || extraMasks === 16) buf.writeUInt32LE(am >>> 0, 66);
  }
  if (headerSize >= 108) buf.writeUInt32LE(0x73524742, 70); // 'sRGB'
  palette.forEach(([r = 0, g = 0, b = 0], i) => {
    const at = 14 + headerSize + extraMasks + i * 4;
    buf[at] = b;
    buf[at + 1] = g;
    buf[at + 2] = r;
  });

  const fields = [rm, gm, bm, am].map(maskBits);
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const [r = 0, g = 0, b = 0, a = 0] = data.subarray(p * 4, p * 4 + 4);
      if (bitCount === 24) {
        buf[row + x * 3] = b;
        buf[row + x * 3 + 1] = g;
        buf[row + x * 3 + 2] = r;
        expected.set([r, g, b, 255], p * 4);
      } else if (bitCount <= 8) {
        const index = indexes[p] ?? 0;
        const bit = x * bitCount;
        const at = row + (bit >> 3);
        buf.writeUInt8(buf.readUInt8(at) | (index << (8 - bitCount - (bit & 7))), at);
      } else if (bitCount === 32 && compression === 0) {
        buf.writeUInt32LE(
          (((options.reservedByte === 'zero' ? 0 : a) << 24) | (r << 16) | (g << 8) | b) >>> 0,
          row + x * 4,
        );
        expected.set([r, g, b, options.reservedByte === 'zero' ? 255 : a], p * 4);
      } else {
        let value = 0;
        const channels = [r, g, b, a];
        const decoded = [0, 0, 0, 255];
        fields.forEach(({ shift, max }, c) => {
          if (max === 0) return;
          const level = Math.round(((channels[c] ?? 0) * max) / 255);
          value += level * 2 ** shift;
          decoded[c] = quantize(channels[c] ?? 0, max);
        });
        if (bitCount === 32) buf.writeUInt32LE(value, row + x * 4);
        else buf.writeUInt16LE(value, row + x * 2);
        expected.set(decoded, p * 4);
      }
    }
  }
  return { file: buf, expected: { data: expected, width, height } };
}

function expectPixels(actual: RawImage, expected: RawImage) {
  expect({ width: actual.width, height: actual.height }).toEqual({
    width: expected.width,
    height: expected.height,
  });
  expect(Buffer.from(actual.data).equals(Buffer.from(expected.data))).toBe(true);
}

/** A PNG signature and IHDR chunk (with its CRC) claiming any size, then whatever follows. */
function pngHeader(width: number, height: number, rest: Uint8Array = Buffer.alloc(0)): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8; // depth
  ihdr[17] = 6; // RGBA
  ihdr.writeUInt32BE(zlib.crc32(ihdr.subarray(4, 21)) >>> 0, 21);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, rest]);
}

const garbage = Buffer.from('this is not image data, just bytes after a header '.repeat(20));

async function jpegWithSize(width: number, height: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
    .jpeg()
    .toBuffer();
  for (let i = 2; i < jpeg.length;) {
    const marker = jpeg[i + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc3) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
    i += 2 + jpeg.readUInt16BE(i + 2);
  }
  throw new Error('no SOF');
}

// ------------------------------------------------------------------------------------------------

describe('sniffImageFormat', () => {
  it('knows each accepted format by its first bytes, whatever the name', async () => {
    const image = rawSharp(pattern(4, 4));
    expect(sniffImageFormat(await image.clone().png().toBuffer())).toBe('png');
    expect(sniffImageFormat(await image.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageFormat(await image.clone().gif().toBuffer())).toBe('gif');
    expect(sniffImageFormat(await image.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImageFormat(encodeBmp(pattern(4, 4), { bitCount: 24 }).file)).toBe('bmp');
  });

  it('says nothing of text, other formats or too few bytes', async () => {
    expect(sniffImageFormat(Buffer.from('hello, I am a text file'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('BMW and Audi are cars, not bitmaps'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    const tiff = await rawSharp(pattern(4, 4)).tiff().toBuffer();
    expect(sniffImageFormat(tiff)).toBeUndefined();
    expect(sniffImageFormat(new Uint8Array(0))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined();
  });
});

describe('readImageHeader', () => {
  it('reads format and size of every accepted format', async () => {
    const image = rawSharp(pattern(37, 23));
    const cases = [
      ['png', await image.clone().png().toBuffer()],
      ['jpeg', await image.clone().jpeg().toBuffer()],
      ['gif', await image.clone().gif().toBuffer()],
      ['webp', await image.clone().webp().toBuffer()],
      ['webp', await image.clone().webp({ lossless: true }).toBuffer()],
      ['webp', await image.clone().removeAlpha().webp().toBuffer()],
      ['bmp', encodeBmp(pattern(37, 23), { bitCount: 24 }).file],
      ['bmp', encodeBmp(pattern(37, 23), { bitCount: 32, topDown: true, headerSize: 124 }).file],
    ] as const;
    for (const [format, data] of cases) {
      expect(await readImageHeader(await file(data)), format).toEqual({
        format,
        width: 37,
        height: 23,
      });
    }
  });

  it('answers a PNG that claims 20000x20000 from its 33-byte header, without decoding', async () => {
    // What follows the header is no image data: only the header can give this answer.
    expect(await readImageHeader(await file(pngHeader(20000, 20000, garbage)))).toEqual({
      format: 'png',
      width: 20000,
      height: 20000,
    });
    expect(await readImageHeader(await file(pngHeader(20000, 20000)))).toMatchObject({
      width: 20000,
    });
  });

  it('answers a JPEG that claims 20000x20000 from its markers, without decoding', async () => {
    // The scan holds 8x8 pixels: only the markers can give this answer.
    expect(await readImageHeader(await file(await jpegWithSize(20000, 20000)))).toEqual({
      format: 'jpeg',
      width: 20000,
      height: 20000,
    });
  });

  it('gives the size as displayed for a JPEG with an EXIF orientation', async () => {
    const rotated = await rawSharp(pattern(40, 20, false))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await readImageHeader(await file(rotated))).toEqual({
      format: 'jpeg',
      width: 20,
      height: 40,
    });
  });

  it('answers undefined for truncated files, garbage and unreadable headers', async () => {
    const png = await rawSharp(pattern(16, 16)).png().toBuffer();
    const jpeg = await rawSharp(pattern(16, 16)).jpeg().toBuffer();
    const gif = await rawSharp(pattern(16, 16)).gif().toBuffer();
    const webp = await rawSharp(pattern(16, 16)).webp().toBuffer();
    const badCrc = pngHeader(10, 10, garbage);
    badCrc.writeUInt8(badCrc.readUInt8(29) ^ 0xff, 29);
    const rle = encodeBmp(fewColours(8, 8, 4), { bitCount: 8 }).file;
    rle.writeUInt32LE(1, 30); // BI_RLE8
    for (const data of [
      png.subarray(0, 20),
      jpeg.subarray(0, 100),
      gif.subarray(0, 10),
      webp.subarray(0, 20),
      badCrc,
      pngHeader(0, 10, garbage),
      rle,
      Buffer.from('just text'),
      Buffer.alloc(0),
    ]) {
      expect(await readImageHeader(await file(data))).toBeUndefined();
    }
  });
});

describe('decodeToRaw', () => {
  it('decodes PNG, lossless WebP and GIF to exact RGBA', async () => {
    const image = pattern(19, 11);
    const png = await rawSharp(image).png().toBuffer();
    expectPixels(await decodeToRaw(await file(png)), image);
    // Lossless WebP (as libvips writes it) drops the colour of fully transparent pixels.
    const visible = {
      ...image,
      data: image.data.map((v, i) => (i % 4 === 3 ? Math.max(v, 1) : v)),
    };
    const webp = await rawSharp(visible).webp({ lossless: true }).toBuffer();
    expectPixels(await decodeToRaw(await file(webp)), visible);
    const few = fewColours(19, 11, 5);
    const gif = await rawSharp(few).gif().toBuffer();
    expectPixels(await decodeToRaw(await file(gif)), few);
  });

  it('turns grey, 16-bit and opaque images into 8-bit RGBA', async () => {
    const grey = await sharp({
      create: { width: 5, height: 3, channels: 3, background: '#404040' },
    })
      .greyscale()
      .png()
      .toBuffer();
    const decodedGrey = await decodeToRaw(await file(grey));
    expect(decodedGrey.data.length).toBe(5 * 3 * 4);
    expect([...decodedGrey.data.subarray(0, 4)]).toEqual([64, 64, 64, 255]);

    const deep = await sharp({
      create: { width: 4, height: 2, channels: 3, background: '#ff8000' },
    })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    const decodedDeep = await decodeToRaw(await file(deep));
    expect(decodedDeep.data.length).toBe(4 * 2 * 4);
    expect([...decodedDeep.data.subarray(0, 4)]).toEqual([255, 128, 0, 255]);
  });

  it('applies the EXIF orientation of a JPEG', async () => {
    // Left half red, right half blue; orientation 6 turns it a quarter clockwise for display.
    const width = 32;
    const height = 16;
    const data = new Uint8Array(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      data.set(p % width < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], p * 4);
    }
    const jpeg = await rawSharp({ data, width, height })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const decoded = await decodeToRaw(await file(jpeg));
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: 16, height: 32 });
    const at = (x: number, y: number) => [
      ...decoded.data.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4),
    ];
    const [r1 = 0, , b1 = 0, a1] = at(8, 4);
    const [r2 = 0, , b2 = 0] = at(8, 28);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(60);
    expect(a1).toBe(255);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);
  });

  it('refuses more pixels than allowed before decoding, and what is not an image', async () => {
    const png = await rawSharp(pattern(100, 100)).png().toBuffer();
    await expect(decodeToRaw(await file(png), { maxPixels: 9999 })).rejects.toThrow();
    expect((await decodeToRaw(await file(png), { maxPixels: 10000 })).width).toBe(100);
    await expect(decodeToRaw(await file('plain text'))).rejects.toThrow(/accepted format/);
    const truncated = png.subarray(0, png.length - 40);
    await expect(decodeToRaw(await file(truncated))).rejects.toThrow();
  });
});

describe('BMP decoding', () => {
  const cases: [string, RawImage, BmpOptions][] = [
    ['24-bit, bottom-up, rows padded', pattern(5, 3), { bitCount: 24 }],
    ['24-bit, top-down', pattern(7, 4), { bitCount: 24, topDown: true }],
    ['24-bit, V4 header', pattern(3, 3), { bitCount: 24, headerSize: 108 }],
    ['32-bit BI_RGB with alpha', pattern(5, 3), { bitCount: 32 }],
    [
      '32-bit BI_RGB, reserved byte zero (opaque)',
      pattern(4, 2),
      { bitCount: 32, reservedByte: 'zero', topDown: true },
    ],
    [
      '32-bit V5 BI_BITFIELDS, RGBA byte order',
      pattern(6, 5),
      {
        bitCount: 32,
        headerSize: 124,
        compression: 3,
        masks: [0xff, 0xff00, 0xff0000, 0xff000000],
      },
    ],
    [
      '32-bit BITMAPINFOHEADER BI_BITFIELDS (no alpha)',
      pattern(3, 2, false),
      { bitCount: 32, compression: 3, masks: [0xff0000, 0xff00, 0xff, 0] },
    ],
    [
      '32-bit BI_ALPHABITFIELDS',
      pattern(3, 2),
      { bitCount: 32, compression: 6, masks: [0xff000000, 0xff0000, 0xff00, 0xff] },
    ],
    ['16-bit 5-5-5', pattern(5, 3, false), { bitCount: 16 }],
    [
      '16-bit 5-6-5 bit fields',
      pattern(3, 3, false),
      { bitCount: 16, compression: 3, masks: [0xf800, 0x07e0, 0x001f, 0] },
    ],
    [
      '16-bit 4-4-4-4 V5 bit fields',
      pattern(3, 3),
      { bitCount: 16, headerSize: 124, compression: 3, masks: [0x0f00, 0x00f0, 0x000f, 0xf000] },
    ],
    ['8-bit palette, bottom-up', fewColours(5, 3, 7), { bitCount: 8 }],
    ['8-bit palette, top-down', fewColours(9, 4, 200), { bitCount: 8, topDown: true }],
    ['4-bit palette', fewColours(5, 3, 13), { bitCount: 4 }],
    ['1-bit palette', fewColours(11, 3, 2), { bitCount: 1 }],
  ];

  for (const [name, image, options] of cases) {
    it(`decodes ${name} exactly`, async () => {
      const { file: bmp, expected } = encodeBmp(image, options);
      expectPixels(decodeBmp(bmp), expected);
      expectPixels(await decodeToRaw(await file(bmp, 'image.bmp')), expected);
    });
  }

  it('reads a file whose last row lacks its padding', async () => {
    const { file: bmp, expected } = encodeBmp(pattern(5, 3), { bitCount: 24 });
    // Bottom-up: the last row in the file is the top row; 5 * 3 = 15 bytes + 1 padding byte.
    expectPixels(decodeBmp(bmp.subarray(0, bmp.length - 1)), expected);
  });

  it('hands sharp raw pixels, so a BMP can be processed like any other image', async () => {
    const { file: bmp, expected } = encodeBmp(pattern(6, 4), { bitCount: 32 });
    const png = await (await openImage(await file(bmp))).png().toBuffer();
    expectPixels(await decodeToRaw(await file(png)), expected);
  });

  it('refuses the variants it does not read, with a clear error', () => {
    const image = fewColours(8, 4, 4);
    const rle = encodeBmp(image, { bitCount: 8 }).file;
    rle.writeUInt32LE(1, 30);
    expect(() => decodeBmp(rle)).toThrow(/compression 1/);
    const core = encodeBmp(image, { bitCount: 24 }).file;
    core.writeUInt32LE(12, 14);
    expect(() => decodeBmp(core)).toThrow(/header of 12 bytes/);
    const deep = encodeBmp(image, { bitCount: 24 }).file;
    deep.writeUInt16LE(64, 28);
    expect(() => decodeBmp(deep)).toThrow(/64 bits/);
    const bitfields24 = encodeBmp(image, { bitCount: 24 }).file;
    bitfields24.writeUInt32LE(3, 30);
    expect(() => decodeBmp(bitfields24)).toThrow(/compression 3 at 24 bits/);
    const holes = encodeBmp(pattern(2, 2), {
      bitCount: 32,
      headerSize: 124,
      compression: 3,
      masks: [0xff, 0xff00, 0xff0000, 0xff000000],
    }).file;
    holes.writeUInt32LE(0x0f0f, 54);
    expect(() => decodeBmp(holes)).toThrow(/bit mask/);
  });

  it('refuses truncated pixel data and images over the pixel limit before decoding', () => {
    const { file: bmp } = encodeBmp(pattern(10, 10), { bitCount: 24 });
    expect(() => decodeBmp(bmp.subarray(0, bmp.length - 40))).toThrow(/Truncated/);
    expect(() => decodeBmp(bmp, 99)).toThrow(/exceeds 99 pixels/);
    const huge = Buffer.from(bmp);
    huge.writeInt32LE(100000, 18);
    huge.writeInt32LE(100000, 22);
    expect(() => decodeBmp(huge)).toThrow(/exceeds/);
  });
});

describe('validateStoredUpload', () => {
  async function check(data: Uint8Array | string) {
    const target = await file(data);
    return validateStoredUpload(target, (await fsp.stat(target)).size);
  }

  it('accepts each format, answering its format and size', async () => {
    const image = rawSharp(pattern(33, 17));
    const cases = [
      ['png', await image.clone().png().toBuffer()],
      ['jpeg', await image.clone().jpeg().toBuffer()],
      ['gif', await image.clone().gif().toBuffer()],
      ['webp', await image.clone().webp().toBuffer()],
      ['bmp', encodeBmp(pattern(33, 17), { bitCount: 24 }).file],
    ] as const;
    for (const [format, data] of cases) {
      expect(await check(data)).toEqual({ ok: true, format, width: 33, height: 17 });
    }
  });

  it('refuses a text file named .png as unreadable: the format is known by content', async () => {
    const target = await file('this is plain text, not a picture', 'photo.png');
    expect(await validateStoredUpload(target, 33)).toEqual({
      ok: false,
      message: TEXTS.uploadUnreadable,
    });
  });

  it('accepts 26214400 bytes and refuses 26214401', async () => {
    const png = await rawSharp(pattern(8, 8)).png().toBuffer();
    for (const [bytes, ok] of [
      [UPLOAD_MAX_BYTES, true],
      [UPLOAD_MAX_BYTES + 1, false],
    ] as const) {
      const target = await file(png);
      await fsp.truncate(target, bytes); // pads the file with zeros after IEND
      expect((await fsp.stat(target)).size).toBe(bytes);
      const result = await validateStoredUpload(target, bytes);
      expect(result).toEqual(
        ok
          ? { ok: true, format: 'png', width: 8, height: 8 }
          : { ok: false, message: TEXTS.uploadTooLarge },
      );
    }
    expect(await validateStoredUpload(await file(png), Number.NaN)).toEqual({
      ok: false,
      message: TEXTS.uploadTooLarge,
    });
  });

  it('refuses a PNG that claims 20000x20000, answering from its header alone', async () => {
    expect(await check(pngHeader(20000, 20000, garbage))).toEqual({
      ok: false,
      message:
        'La imagen (20000x20000, 400.00 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    });
  });

  it('accepts exactly 17,000,000 pixels and refuses 17,000,001', async () => {
    expect(await check(pngHeader(4250, 4000, garbage))).toEqual({
      ok: true,
      format: 'png',
      width: 4250,
      height: 4000,
    });
    // 17,000,001 = 3 x 5,666,667.
    expect(await check(pngHeader(5666667, 3, garbage))).toEqual({
      ok: false,
      message: TEXTS.uploadPixels(5666667, 3),
    });
    expect(await check(await jpegWithSize(4250, 4000))).toMatchObject({ ok: true });
    const bmp = encodeBmp(pattern(2, 2), { bitCount: 24 }).file;
    bmp.writeInt32LE(4123, 18);
    bmp.writeInt32LE(-4124, 22); // 17,003,252 pixels, top-down
    expect(await check(bmp)).toEqual({ ok: false, message: TEXTS.uploadPixels(4123, 4124) });
  });

  it('refuses truncated PNG and JPEG files as unreadable', async () => {
    const png = await rawSharp(pattern(16, 16)).png().toBuffer();
    const jpeg = await rawSharp(pattern(16, 16)).jpeg().toBuffer();
    for (const data of [png.subarray(0, 24), jpeg.subarray(0, 120), pngHeader(0, 0, garbage)]) {
      expect(await check(data)).toEqual({ ok: false, message: TEXTS.uploadUnreadable });
    }
  });
});
