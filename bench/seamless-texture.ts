import path from 'node:path';
import sharp from 'sharp';

/**
 * A seamless texture of the size, as the HD service stores one: PNG to 25 MP, JPEG above. Its
 * file is `<name>-<width>x<height>.<png|jpg>` in `dir`.
 */
export async function makeSeamlessTexture(
  dir: string,
  name: string,
  width: number,
  height: number,
): Promise<string> {
  const tile = 512;
  const pixels = Buffer.alloc(tile * tile * 3);
  for (let y = 0; y < tile; y++) {
    for (let x = 0; x < tile; x++) {
      const wave = Math.sin((2 * Math.PI * 3 * x) / tile) * Math.cos((2 * Math.PI * 2 * y) / tile);
      const v = Math.round(128 + 60 * wave + (((x * 7919 + y * 104729) % 41) - 20));
      pixels.set([v, Math.round(v * 0.8), Math.round(v * 0.6)], (y * tile + x) * 3);
    }
  }
  const tilePng = await sharp(pixels, { raw: { width: tile, height: tile, channels: 3 } })
    .png()
    .toBuffer();
  const jpeg = width * height > 25_000_000;
  const file = path.join(dir, `${name}-${width}x${height}.${jpeg ? 'jpg' : 'png'}`);
  const canvas = sharp({
    create: { width, height, channels: 3, background: '#808080' },
    limitInputPixels: false,
  }).composite([{ input: tilePng, tile: true, left: 0, top: 0 }]);
  await (jpeg ? canvas.jpeg({ quality: 92 }) : canvas.png()).toFile(file);
  return file;
}
