import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printPixelSize } from '@tessera/contract';
import sharp from 'sharp';
import { renderPrintFile } from '../server/src/imaging/print/render.js';

/**
 * The picture of docs/print.md (not a benchmark; run by hand:
 * `cd bench && node --import tsx print-pictures.ts`): the top-left corner of two print files of
 * one brick texture, with its bleed wrapped (a seamless image: the bricks go on across the cut
 * line) and mirrored (any other image), the cut line drawn in. Deterministic.
 */
const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const HD = { width: 960, height: 480 };
/** 40 × 20 cm at 150 dpi with a 10 mm bleed: a wide bleed, to be seen. */
const PRINT = { widthCm: 40, heightCm: 20 };
const DPI = 150;
const BLEED_MM = 10;
const CORNER = { width: 300, height: 220 };
const ZOOM = 2;

/** Running-bond bricks, whole ones across and down (so it tiles), each a shade of its own. */
function bricks(): Buffer {
  const { width, height } = HD;
  const pixels = Buffer.alloc(width * height * 3);
  const brickW = 120;
  const brickH = 60;
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / brickH);
    const shift = row % 2 ? brickW / 2 : 0;
    for (let x = 0; x < width; x++) {
      const column = Math.floor((x + shift) / brickW) % (width / brickW);
      const mortar = y % brickH < 5 || (x + shift) % brickW < 5;
      const shade = ((row * 7 + column * 13) % 9) * 6;
      const rgb = mortar ? [205, 200, 190] : [150 + shade, 70 + shade / 2, 50];
      pixels.set(rgb, (y * width + x) * 3);
    }
  }
  return pixels;
}

async function corner(dir: string, hd: string, bleed: 'wrap' | 'mirror'): Promise<Buffer> {
  const outputPath = path.join(dir, `${bleed}.tif`);
  await renderPrintFile({
    sourcePath: hd,
    outputPath,
    workDir: dir,
    print: PRINT,
    dpi: DPI,
    bleedMm: BLEED_MM,
    compression: 'lzw',
    bitDepth: 8,
    bleed,
  });
  const { bleedLeft, bleedTop } = printPixelSize(PRINT, DPI, BLEED_MM);
  const w = CORNER.width * ZOOM;
  const h = CORNER.height * ZOOM;
  const x = bleedLeft * ZOOM;
  const y = bleedTop * ZOOM;
  const cutLine = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      `<rect x="0" y="0" width="${w}" height="${y}" fill="#ffffff" fill-opacity="0.25"/>` +
      `<rect x="0" y="${y}" width="${x}" height="${h - y}" fill="#ffffff" fill-opacity="0.25"/>` +
      `<path d="M${x} ${h} V${y} H${w}" fill="none" stroke="#e0007a" stroke-width="3" stroke-dasharray="12 6"/>` +
      `<text x="${x + 12}" y="${y + 34}" font-family="sans-serif" font-size="26" fill="#ffffff" stroke="#000000" stroke-width="1">cut line</text>` +
      `<text x="12" y="34" font-family="sans-serif" font-size="28" font-weight="bold" fill="#ffffff" stroke="#000000" stroke-width="1">${bleed === 'wrap' ? 'wrapped (seamless)' : 'mirrored'}</text>` +
      `</svg>`,
  );
  return sharp(outputPath)
    .extract({ left: 0, top: 0, ...CORNER })
    .resize(w, h, { kernel: 'nearest' })
    .composite([{ input: cutLine }])
    .png()
    .toBuffer();
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-print-pictures-'));
  try {
    const hd = path.join(dir, 'bricks.png');
    await sharp(bricks(), { raw: { ...HD, channels: 3 } })
      .png()
      .toFile(hd);
    const gap = 16;
    const w = CORNER.width * ZOOM;
    const h = CORNER.height * ZOOM;
    const file = path.join(IMAGES, 'print-bleed.png');
    await sharp({ create: { width: 2 * w + gap, height: h, channels: 3, background: '#ffffff' } })
      .composite([
        { input: await corner(dir, hd, 'wrap'), left: 0, top: 0 },
        { input: await corner(dir, hd, 'mirror'), left: w + gap, top: 0 },
      ])
      .png({ palette: true, colours: 128 })
      .toFile(file);
    console.log(`wrote ${file}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
