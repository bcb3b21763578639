/**
 * The physical size inside an image file (issue 17, part 3): print, CAD and 3D tools read a
 * file's resolution to know how large it is, so an HD image carries the density that makes its
 * width the ordered centimetres — PNG `pHYs` (pixels per metre), JPEG JFIF density (dots per
 * inch). The pixels and every other byte are left as they are: the header is rewritten while
 * the file streams through, so a 200 MP JPEG is neither decoded nor held in memory.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';

/** The ordered size of the image's sides, in centimetres. */
export interface PhysicalSize {
  widthCm: number;
  heightCm: number;
}

/**
 * The density that makes `widthPx` pixels `widthCm` long. One density for both axes (square
 * pixels): the height then measures the ordered size to within the rounding of its pixel count.
 */
export function densityFor(
  widthPx: number,
  size: PhysicalSize,
): {
  pixelsPerCm: number;
  pixelsPerMetre: number;
  dotsPerInch: number;
} {
  if (!(widthPx > 0) || !(size.widthCm > 0) || !(size.heightCm > 0)) {
    throw new RangeError(`No density for ${widthPx} px over ${size.widthCm} cm`);
  }
  const pixelsPerCm = widthPx / size.widthCm;
  return {
    pixelsPerCm,
    pixelsPerMetre: Math.round(pixelsPerCm * 100),
    dotsPerInch: Math.round(pixelsPerCm * 2.54),
  };
}

/** The bytes of an image file (`source`, in chunks of any size) with the density of `size`. */
export type DensityWriter = (
  source: AsyncIterable<Buffer | Uint8Array | string>,
  size: PhysicalSize,
) => AsyncGenerator<Buffer>;

/**
 * Copies the image file `from` to `to` with the density of `size`, written by `writer` (an HD
 * encoding's; by default {@link withPhysicalSize}, PNG or JPEG by the file's first bytes),
 * streamed: neither file is ever whole in memory.
 */
export async function copyWithPhysicalSize(
  from: string,
  to: string,
  size: PhysicalSize,
  writer: DensityWriter = withPhysicalSize,
): Promise<void> {
  await pipeline(Readable.from(writer(fs.createReadStream(from), size)), fs.createWriteStream(to));
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The bytes of a PNG or JPEG file (`source`, in chunks of any size) with the density of
 * `size`: PNG gets one `pHYs` chunk right after its header (any other is dropped), JPEG a JFIF
 * header stating dots per inch (rewritten in place, or added after the start-of-image marker).
 * Rejects anything else, or a file cut short before its pixels, with an Error.
 */
export async function* withPhysicalSize(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  size: PhysicalSize,
): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  const start = await reader.peek(8);
  if (isPng(start)) yield* pngWithDensity(reader, size);
  else if (isJpeg(start)) yield* jpegWithDensity(reader, size);
  else throw new Error('Physical size: not a PNG or JPEG file');
}

const isPng = (start: Buffer) => start.length >= 8 && start.equals(PNG_SIGNATURE);
const isJpeg = (start: Buffer) => start.length >= 2 && start[0] === 0xff && start[1] === 0xd8;

/** PNG's density writer: one `pHYs` chunk (see {@link withPhysicalSize}); anything else is refused. */
export async function* pngDensity(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  size: PhysicalSize,
): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  if (!isPng(await reader.peek(8))) throw new Error('Physical size: not a PNG file');
  yield* pngWithDensity(reader, size);
}

/** JPEG's density writer: the JFIF density (see {@link withPhysicalSize}); anything else is refused. */
export async function* jpegDensity(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  size: PhysicalSize,
): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  if (!isJpeg(await reader.peek(8))) throw new Error('Physical size: not a JPEG file');
  yield* jpegWithDensity(reader, size);
}

async function* pngWithDensity(reader: ByteReader, size: PhysicalSize): AsyncGenerator<Buffer> {
  const head = await reader.read(8 + 8 + 13 + 4);
  if (head.length < 33 || head.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('Physical size: a PNG without its header chunk');
  }
  const { pixelsPerMetre } = densityFor(head.readUInt32BE(16), size);
  yield Buffer.concat([head, pngChunk('pHYs', pHYsData(pixelsPerMetre))]);
  // The chunks before the pixels, less any other pHYs; from the first IDAT on, all as it is.
  for (;;) {
    const header = await reader.read(8);
    if (header.length < 8) throw new Error('Physical size: a PNG cut short before its pixels');
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'pHYs') {
      await reader.skip(length + 4);
      continue;
    }
    yield header;
    if (type === 'IDAT') break;
    yield* reader.pass(length + 4);
  }
  yield* reader.rest();
}

function pHYsData(pixelsPerMetre: number): Buffer {
  const data = Buffer.alloc(9);
  data.writeUInt32BE(pixelsPerMetre, 0);
  data.writeUInt32BE(pixelsPerMetre, 4);
  data[8] = 1; // unit: the metre
  return data;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** Markers that stand alone, without a length: TEM, RST0–7 (SOI is read before). */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
/** Start-of-frame markers (SOF0–SOF15 less DHT, JPG and DAC): they carry the pixel size. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * A JPEG's segments up to its frame header are held (a few hundred bytes: tables, and whatever
 * metadata precede the frame), so that the density can be computed from the frame's width and
 * put in the JFIF header at the start.
 */
async function* jpegWithDensity(reader: ByteReader, size: PhysicalSize): AsyncGenerator<Buffer> {
  await reader.read(2); // SOI
  const segments: Buffer[] = [];
  let width: number | undefined;
  while (width === undefined) {
    const marker = await reader.read(2);
    if (marker.length < 2 || marker[0] !== 0xff) {
      throw new Error('Physical size: a JPEG cut short or broken before its frame header');
    }
    const code = marker[1] ?? 0;
    if (code === 0xff) {
      // Fill byte before a marker: keep reading the marker.
      reader.unread(marker.subarray(1));
      continue;
    }
    if (standalone(code)) {
      segments.push(marker);
      continue;
    }
    if (code === 0xd9 || code === 0xda) {
      throw new Error('Physical size: a JPEG without a frame header before its data');
    }
    const lengthBytes = await reader.read(2);
    if (lengthBytes.length < 2) throw new Error('Physical size: a JPEG cut short');
    const body = await reader.read(lengthBytes.readUInt16BE(0) - 2);
    const segment = Buffer.concat([marker, lengthBytes, body]);
    if (isStartOfFrame(code)) {
      if (body.length < 5) throw new Error('Physical size: a JPEG frame header cut short');
      width = body.readUInt16BE(3);
    }
    segments.push(segment);
  }
  const { dotsPerInch } = densityFor(width, size);
  const first = segments[0];
  const jfif =
    first && first[1] === 0xe0 && first.length >= 18 && first.toString('latin1', 4, 9) === 'JFIF\0'
      ? first
      : undefined;
  const header = jfif ?? newJfifHeader();
  // Units 1 (dots per inch), then X and Y density.
  header[11] = 1;
  header.writeUInt16BE(Math.min(65535, Math.max(1, dotsPerInch)), 12);
  header.writeUInt16BE(Math.min(65535, Math.max(1, dotsPerInch)), 14);
  yield Buffer.concat([Buffer.from([0xff, 0xd8]), ...(jfif ? [] : [header]), ...segments]);
  yield* reader.rest();
}

/** APP0 "JFIF" version 1.01 without a thumbnail; the density is filled in by the caller. */
function newJfifHeader(): Buffer {
  const header = Buffer.alloc(18);
  header.writeUInt16BE(0xffe0, 0);
  header.writeUInt16BE(16, 2);
  header.write('JFIF\0', 4, 'latin1');
  header[9] = 1;
  header[10] = 1;
  return header;
}

/** Reads exact byte counts from a stream of chunks, then hands on the rest unchanged. */
class ByteReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<Buffer | Uint8Array | string>) {}

  /** Up to `count` bytes (fewer only at the end of the stream). */
  async read(count: number): Promise<Buffer> {
    await this.fill(count);
    const all = Buffer.concat(this.pending);
    const taken = all.subarray(0, count);
    this.pending = all.length > count ? [all.subarray(count)] : [];
    this.pendingBytes = Math.max(0, all.length - count);
    return taken;
  }

  async peek(count: number): Promise<Buffer> {
    await this.fill(count);
    const all = Buffer.concat(this.pending);
    this.pending = all.length > 0 ? [all] : [];
    return all.subarray(0, count);
  }

  /** Puts bytes back in front of what is still to be read. */
  unread(bytes: Buffer): void {
    this.pending.unshift(bytes);
    this.pendingBytes += bytes.length;
  }

  async skip(count: number): Promise<void> {
    const chunks = this.pass(count);
    while (!(await chunks.next()).done) {
      // Dropped.
    }
  }

  /** The next `count` bytes, in the chunks they come in. */
  async *pass(count: number): AsyncGenerator<Buffer> {
    let left = count;
    while (left > 0) {
      if (this.pending.length === 0 && !(await this.pull())) {
        throw new Error('Physical size: the file is cut short');
      }
      const chunk = this.pending.shift() ?? Buffer.alloc(0);
      this.pendingBytes -= chunk.length;
      if (chunk.length > left) {
        this.unread(chunk.subarray(left));
        yield chunk.subarray(0, left);
        left = 0;
      } else {
        yield chunk;
        left -= chunk.length;
      }
    }
  }

  /** Everything that is left, in the chunks it comes in. */
  async *rest(): AsyncGenerator<Buffer> {
    for (const chunk of this.pending) yield chunk;
    this.pending = [];
    this.pendingBytes = 0;
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      yield toBuffer(next.value);
    }
  }

  private async fill(count: number): Promise<void> {
    while (this.pendingBytes < count && (await this.pull())) {
      // Pulled one more chunk.
    }
  }

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = toBuffer(next.value);
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    return true;
  }
}

function toBuffer(chunk: Buffer | Uint8Array | string): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'latin1');
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
