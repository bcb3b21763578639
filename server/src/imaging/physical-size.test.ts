import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { densityFor, withPhysicalSize, type PhysicalSize } from './physical-size.js';

/** The file through withPhysicalSize, read in chunks of `chunk` bytes (to cross every boundary). */
async function rewrite(file: Buffer, size: PhysicalSize, chunk = 7): Promise<Buffer> {
  const pieces = Array.from({ length: Math.ceil(file.length / chunk) }, (_, i) =>
    file.subarray(i * chunk, (i + 1) * chunk),
  );
  const out: Buffer[] = [];
  for await (const piece of withPhysicalSize(Readable.from(pieces), size)) out.push(piece);
  return Buffer.concat(out);
}

/** A PNG's chunks (type and data), as a reader sees them. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    chunks.push({
      type: png.toString('latin1', at + 4, at + 8),
      data: png.subarray(at + 8, at + 8 + length),
    });
    at += 12 + length;
  }
  return chunks;
}

/** A JPEG's JFIF header: units (1 = dots per inch) and the two densities; undefined without one. */
function jfif(jpeg: Buffer): { units: number; x: number; y: number } | undefined {
  if (jpeg.readUInt16BE(2) !== 0xffe0 || jpeg.toString('latin1', 6, 11) !== 'JFIF\0')
    return undefined;
  return { units: jpeg[13] ?? -1, x: jpeg.readUInt16BE(14), y: jpeg.readUInt16BE(16) };
}

function texture(width: number, height: number): sharp.Sharp {
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 37 + (i >> 7) * 11) & 255;
  return sharp(data, { raw: { width, height, channels: 3 } });
}

const raw = (file: Buffer) => sharp(file).raw().toBuffer();

describe('physical size inside HD files', () => {
  it('computes the density that makes the width the ordered centimetres (2150 px over 30 cm)', () => {
    const density = densityFor(2150, { widthCm: 30, heightCm: 30 });
    expect(density.pixelsPerCm).toBeCloseTo(71.67, 2);
    expect(density.pixelsPerMetre).toBe(7167);
    expect(density.dotsPerInch).toBe(182);
    expect(() => densityFor(2150, { widthCm: 0, heightCm: 30 })).toThrow(RangeError);
  });

  it('writes one pHYs chunk into a PNG, replacing any other, pixels untouched', async () => {
    const size = { widthCm: 30, heightCm: 15 };
    // sharp writes a pHYs chunk of its own: it must go.
    const original = await texture(430, 215).png().toBuffer();
    expect(pngChunks(original).filter((c) => c.type === 'pHYs')).toHaveLength(1);
    const written = await rewrite(original, size);

    const chunks = pngChunks(written);
    expect(chunks[0]?.type).toBe('IHDR');
    const phys = chunks.filter((c) => c.type === 'pHYs');
    expect(phys).toHaveLength(1);
    expect(chunks.findIndex((c) => c.type === 'pHYs')).toBeLessThan(
      chunks.findIndex((c) => c.type === 'IDAT'),
    );
    const data = phys[0]?.data ?? Buffer.alloc(9);
    // 430 px over 30 cm: 14.33 px/cm = 1433 px/m on both axes, unit metre.
    expect([data.readUInt32BE(0), data.readUInt32BE(4), data[8]]).toEqual([1433, 1433, 1]);
    const width = 430 / (data.readUInt32BE(0) / 100);
    expect(width).toBeCloseTo(30, 1);

    // Readers agree (sharp reports whole dots per inch) and the file is a valid PNG, same pixels.
    const meta = await sharp(written).metadata();
    expect(meta.density).toBe(Math.round(1433 * 0.0254));
    expect((await raw(written)).equals(await raw(original))).toBe(true);
  });

  it('adds a JFIF header with the density in dots per inch to a JPEG, or rewrites its own, pixels untouched', async () => {
    const size = { widthCm: 30, heightCm: 30 };
    // sharp's JPEGs (as the upscaler writes them) have no JFIF header: one is added.
    const original = await texture(2150, 64)
      .jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
      .toBuffer();
    expect(jfif(original)).toBeUndefined();
    const written = await rewrite(original, size, 4096);
    expect(written.length).toBe(original.length + 18);
    expect(jfif(written)).toEqual({ units: 1, x: 182, y: 182 });
    // 2150 px ÷ 182 dpi = 30.006 cm.
    expect((2150 / 182) * 2.54).toBeCloseTo(30, 1);
    expect((await sharp(written).metadata()).density).toBe(182);
    expect((await raw(written)).equals(await raw(original))).toBe(true);

    // A JFIF header already there is rewritten in place: 2150 px over 120 cm is 46 dpi.
    const again = await rewrite(written, { widthCm: 120, heightCm: 120 }, 5);
    expect(again.length).toBe(written.length);
    expect(jfif(again)).toEqual({ units: 1, x: 46, y: 46 });
    expect((await raw(again)).equals(await raw(original))).toBe(true);
  });

  it('refuses what is not a PNG or JPEG, and a file cut short before its pixels', async () => {
    await expect(
      rewrite(Buffer.from('GIF89a just some bytes'), { widthCm: 1, heightCm: 1 }),
    ).rejects.toThrow(/not a PNG or JPEG/);
    const png = await texture(16, 16).png().toBuffer();
    await expect(rewrite(png.subarray(0, 40), { widthCm: 1, heightCm: 1 })).rejects.toThrow(
      /cut short/,
    );
    const jpeg = await texture(16, 16).jpeg().toBuffer();
    await expect(rewrite(jpeg.subarray(0, 30), { widthCm: 1, heightCm: 1 })).rejects.toThrow(
      /cut short/,
    );
  });
});
