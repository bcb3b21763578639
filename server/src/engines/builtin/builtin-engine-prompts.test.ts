/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the engine wrote at the size asked, at indices inside them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PROMPT_TERMS_METADATA_KEY,
  promptColour,
  SYNTHESIS_USED_METADATA_KEY,
  understandPrompts,
} from '@tessera/contract';
import { converter } from 'culori';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateParams } from '../engine.js';
import { FORM_DEFAULTS } from '../../testing/generate-params.js';
import { BuiltinEngine } from './builtin-engine.js';
import { stripes } from './test-references.js';

// The prompts through the engine and its worker (issue 27, part 1): scale words resize the
// working reference, the prompts change the pixels deterministically, every face of a series
// gets them, and the understood terms come back as metadata.

const SIDE = 256;
/** The reference's stripes repeat every this many pixels along x. */
const PERIOD = 24;
let dir: string;
let referencePath: string;
let counter = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-prompts-'));
  referencePath = path.join(dir, 'reference.png');
  const reference = stripes(SIDE, SIDE, PERIOD);
  await sharp(reference.data, { raw: { width: SIDE, height: SIDE, channels: 4 } })
    .png()
    .toFile(referencePath);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const engine = new BuiltinEngine({ upscaler: 'lanczos' });
const never = new AbortController().signal;

function params(positivePrompt: string, overrides: Partial<GenerateParams> = {}): GenerateParams {
  return {
    ...FORM_DEFAULTS,
    referencePath,
    outputPath: path.join(dir, `out-${counter++}.png`),
    width: SIDE,
    height: SIDE,
    seed: 5,
    positivePrompt,
    negativePrompt: 'blurry',
    ...overrides,
  };
}

/** Generates and reads back the RGB pixels, and what the engine returned. */
async function generate(job: GenerateParams) {
  const result = await engine.generate(job, () => undefined, never);
  const pixels = await sharp(job.outputPath).raw().toBuffer();
  return { result, pixels };
}

/**
 * The dominant period along x of an RGB image's luminance: the first peak of the rows' mean
 * autocorrelation past its first zero crossing that is at least 0.6 of the highest beyond it.
 */
function dominantPeriod(pixels: Buffer, width: number, height: number): number {
  const maxLag = Math.floor(width / 2);
  const r = new Float64Array(maxLag + 1);
  const row = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    let mean = 0;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      row[x] = 0.299 * pixels[p]! + 0.587 * pixels[p + 1]! + 0.114 * pixels[p + 2]!;
      mean += row[x]! / width;
    }
    for (let x = 0; x < width; x++) row[x] = row[x]! - mean;
    for (let k = 0; k <= maxLag; k++) {
      let sum = 0;
      for (let x = 0; x + k < width; x++) sum += row[x]! * row[x + k]!;
      r[k] = r[k]! + sum / (width - k);
    }
  }
  let start = 1;
  while (start < maxLag && r[start]! > 0) start++;
  let highest = -Infinity;
  for (let k = start; k < maxLag; k++) highest = Math.max(highest, r[k]!);
  for (let k = start + 1; k < maxLag; k++) {
    if (r[k]! >= r[k - 1]! && r[k]! >= r[k + 1]! && r[k]! >= 0.6 * highest) return k;
  }
  return maxLag;
}

const toOklab = converter('oklab');
const toOklch = converter('oklch');

/** The mean hue (degrees) of an RGB image's chromatic pixels (OKLCH chroma ≥ 0.03). */
function meanHue(pixels: Buffer): number {
  let a = 0;
  let b = 0;
  for (let p = 0; p < pixels.length; p += 3) {
    const lab = toOklab({
      mode: 'rgb',
      r: pixels[p]! / 255,
      g: pixels[p + 1]! / 255,
      b: pixels[p + 2]! / 255,
    });
    if (Math.hypot(lab.a, lab.b) < 0.03) continue;
    a += lab.a;
    b += lab.b;
  }
  return ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
}

describe('the builtin engine reads the prompts', () => {
  it('scale words: "large" makes the dominant period longer, "fine" shorter', async () => {
    const [plain, large, fine] = await Promise.all(
      ['stripes', 'large stripes', 'rayas finas'].map((prompt) => generate(params(prompt))),
    );
    const period = (run: { pixels: Buffer }) => dominantPeriod(run.pixels, SIDE, SIDE);
    expect(Math.abs(period(plain!) - PERIOD)).toBeLessThanOrEqual(2);
    expect(period(large!)).toBeGreaterThanOrEqual(1.5 * period(plain!));
    expect(period(fine!)).toBeLessThanOrEqual(0.7 * period(plain!));
  });

  it('the same prompts give identical pixels, other prompts others; the terms come back', async () => {
    const [a, b, c] = await Promise.all([
      generate(params('terracotta')),
      generate(params('terracotta')),
      generate(params('sage')),
    ]);
    expect(a!.pixels.equals(b!.pixels)).toBe(true);
    expect(a!.pixels.equals(c!.pixels)).toBe(false);
    expect(a!.result.metadata).toEqual({
      [PROMPT_TERMS_METADATA_KEY]: understandPrompts('terracotta', 'blurry'),
      [SYNTHESIS_USED_METADATA_KEY]: 'quilting',
    });
    expect(c!.result.metadata?.[PROMPT_TERMS_METADATA_KEY]).toEqual({
      positive: [{ kind: 'colour', id: 'sage', modifiers: [], text: 'sage' }],
      negative: [],
    });
  });

  it('every face of a series gets the prompts', async () => {
    const seriesPaths = [1, 2].map((face) => path.join(dir, `series-f${face}.png`));
    const job = params('blue', { seriesPaths, outputPath: seriesPaths[0]!, seamless: true });
    await engine.generate(job, () => undefined, never);
    const blue = toOklch(promptColour('blue')!.hex)!.h!;
    for (const file of seriesPaths) {
      const hue = meanHue(await sharp(file).raw().toBuffer());
      expect(Math.abs(hue - blue)).toBeLessThan(15);
    }
  });
});
