import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixtures.js';
import { withPngText } from './png-text.js';
import {
  makeHdThumbnail,
  makeThumbnail,
  probeImage,
  readImageSize,
  THUMBNAIL_SIZE,
} from './probe.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#a0522d' } })
    .png()
    .toBuffer();

describe('image probing', () => {
  it('reads size and format, and the metadata a PNG carries in a text chunk', async () => {
    const metadata = {
      cliptextencode_585: 'terracotta tiles, ñandú',
      ksampler_cfg: 3.5,
      seed: '10',
    };
    const image = withPngText(await png(64, 32), 'metadata', JSON.stringify(metadata));
    expect(await probeImage(image)).toEqual({
      format: 'png',
      width: 64,
      height: 32,
      embeddedMetadata: metadata,
    });
  });

  it('gives empty metadata for a plain image or an unreadable chunk', async () => {
    expect((await probeImage(await png(8, 8)))?.embeddedMetadata).toEqual({});
    const broken = withPngText(await png(8, 8), 'metadata', '{not json');
    expect((await probeImage(broken))?.embeddedMetadata).toEqual({});
    const notObject = withPngText(await png(8, 8), 'metadata', '[1,2]');
    expect((await probeImage(notObject))?.embeddedMetadata).toEqual({});
  });

  it('says a file that is not an image is none', async () => {
    expect(await probeImage(Buffer.from('GIF89a but not really'))).toBeUndefined();
    expect(await probeImage(Buffer.alloc(0))).toBeUndefined();
  });

  it('makes a WebP thumbnail that fits the thumbnail size', async () => {
    const thumbnail = await makeThumbnail(await png(1448, 724));
    const info = await sharp(thumbnail).metadata();
    expect(info.format).toBe('webp');
    expect([info.width, info.height]).toEqual([THUMBNAIL_SIZE, THUMBNAIL_SIZE / 2]);
  });

  it('reads the size of an image file and thumbnails it from the file (HD outputs)', async () => {
    const dir = tempDir();
    try {
      const png = path.join(dir.dir, 'hd.png');
      await fsp.writeFile(
        png,
        await sharp({ create: { width: 1200, height: 2400, channels: 3, background: '#445566' } })
          .png()
          .toBuffer(),
      );
      expect(await readImageSize(png)).toEqual({ width: 1200, height: 2400 });
      const info = await sharp(await makeHdThumbnail(png)).metadata();
      expect(info.format).toBe('webp');
      expect([info.width, info.height]).toEqual([THUMBNAIL_SIZE / 2, THUMBNAIL_SIZE]);
      await expect(readImageSize(path.join(dir.dir, 'none.png'))).rejects.toThrow();
    } finally {
      dir.remove();
    }
  });
});
