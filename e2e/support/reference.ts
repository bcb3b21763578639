import sharp from 'sharp';

/**
 * A photo-like reference made by the test: a base colour with random grain, so the engine has
 * texture to work from. `grain` is the spread added to each channel.
 */
export function grainyPhoto(options: {
  width: number;
  height: number;
  base: readonly [number, number, number];
  grain: number;
  format: 'png' | 'jpeg';
}): Promise<Buffer> {
  const { width, height, base, grain, format } = options;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const noise = Math.floor(Math.random() * grain);
    pixels[i] = base[0] + noise;
    pixels[i + 1] = base[1] + noise;
    pixels[i + 2] = base[2] + noise;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}
