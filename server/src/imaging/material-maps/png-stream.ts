/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index below is in bounds by construction (sizes are
 * checked on entry), and `noUncheckedIndexedAccess` would otherwise type each read as possibly
 * undefined. `!` costs nothing at run time, unlike a `?? 0` fallback in the inner loops. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

export interface PngLayout {
  width: number;
  height: number;
  /** 1: grey, 3: RGB. */
  channels: 1 | 3;
  bitDepth: 8 | 16;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG's "Sub" filter: each byte minus the one a pixel to its left; cheap, and maps compress. */
const FILTER_SUB = 1;

/**
 * A PNG written row by row to a stream, its pixel data deflated as it comes: libvips (through
 * sharp) encodes only from a whole image in memory, which a 200 MP map must never be.
 */
export class PngStreamWriter {
  private readonly deflate: zlib.Deflate;
  private readonly bytesPerPixel: number;
  private readonly rowBytes: number;
  private rowsWritten = 0;
  private readonly done: Promise<void>;

  constructor(
    private readonly layout: PngLayout,
    private readonly out: Writable,
    // Level 3: most of level 6's size at a fraction of its time on pictures of this kind.
    level = 3,
  ) {
    this.bytesPerPixel = (layout.channels * layout.bitDepth) / 8;
    this.rowBytes = layout.width * this.bytesPerPixel;
    const header = Buffer.alloc(13);
    header.writeUInt32BE(layout.width, 0);
    header.writeUInt32BE(layout.height, 4);
    header[8] = layout.bitDepth;
    header[9] = layout.channels === 1 ? 0 : 2;
    // Compression, filter method, no interlace: all 0.
    out.write(SIGNATURE);
    out.write(chunk('IHDR', header));
    this.deflate = zlib.createDeflate({ level, memLevel: 9 });
    this.deflate.on('data', (data: Buffer) => out.write(chunk('IDAT', data)));
    this.done = new Promise((resolve, reject) => {
      this.deflate.once('end', () => {
        out.end(chunk('IEND', Buffer.alloc(0)));
        resolve();
      });
      this.deflate.once('error', reject);
      out.once('error', reject);
    });
  }

  /** One row of samples (16-bit samples big-endian, as PNG stores them); the row is copied. */
  writeRow(row: Uint8Array): void {
    if (row.length !== this.rowBytes) throw new Error('PNG row of the wrong length');
    if (this.rowsWritten >= this.layout.height) throw new Error('PNG has all its rows');
    const filtered = Buffer.allocUnsafe(this.rowBytes + 1);
    filtered[0] = FILTER_SUB;
    const bpp = this.bytesPerPixel;
    for (let i = 0; i < bpp; i++) filtered[i + 1] = row[i]!;
    for (let i = bpp; i < this.rowBytes; i++) filtered[i + 1] = (row[i]! - row[i - bpp]!) & 0xff;
    this.deflate.write(filtered);
    this.rowsWritten++;
  }

  /** Resolves when the compressor and the file can take more rows. */
  async drain(): Promise<void> {
    if (this.deflate.writableNeedDrain) await once(this.deflate, 'drain');
    if (this.out.writableNeedDrain) await once(this.out, 'drain');
  }

  /** Ends the PNG once every row is written; resolves when the stream has it all. */
  async end(): Promise<void> {
    if (this.rowsWritten !== this.layout.height) {
      throw new Error(`PNG ended after ${this.rowsWritten} of ${this.layout.height} rows`);
    }
    this.deflate.end();
    await this.done;
    if (!this.out.writableFinished) await once(this.out, 'finish');
  }

  /** Stops on failure: nothing more is written. */
  destroy(err?: Error): void {
    this.deflate.destroy(err);
    this.out.destroy(err);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
