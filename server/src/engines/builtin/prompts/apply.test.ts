/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the test made itself, at indices inside them. */
import { promptColour } from '@tessera/contract';
import { converter } from 'culori';
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import { synthesize, type SynthesisOptions } from '../quilting/synthesize.js';
import { bricks, clamp8, stoneTiles } from '../test-references.js';
import { mulberry32 } from '../prng.js';
import { applyPrompts, promptPlan } from './apply.js';

// The prompts' colours, finish and negative colours (issue 27, part 1), measured on quilted
// outputs of 256 × 256 from generated references, with culori's OKLab as the yardstick.

const SIDE = 256;
const toOklab = converter('oklab');
const toOklch = converter('oklch');

/** Quilts `reference` with these prompts, as the worker does (its resize aside). */
function quilt(reference: RawImage, positivePrompt: string, negativePrompt = ''): RawImage {
  const options: SynthesisOptions = { ...FORM_DEFAULTS, width: SIDE, height: SIDE, seed: 11 };
  const plan = promptPlan({ positivePrompt, negativePrompt });
  const prepared = applyPrompts(reference, options, plan);
  return synthesize(prepared.reference, prepared.options);
}

interface Pixel {
  l: number;
  a: number;
  b: number;
  c: number;
  h: number;
}

function pixels(image: RawImage): Pixel[] {
  const out: Pixel[] = [];
  for (let p = 0; p < image.data.length; p += 4) {
    const [r, g, b] = [image.data[p]!, image.data[p + 1]!, image.data[p + 2]!];
    const lab = toOklab({ mode: 'rgb', r: r / 255, g: g / 255, b: b / 255 });
    const c = Math.hypot(lab.a, lab.b);
    out.push({ l: lab.l, a: lab.a, b: lab.b, c, h: (Math.atan2(lab.b, lab.a) * 180) / Math.PI });
  }
  return out;
}

/** The mean hue (degrees) of the chromatic pixels (chroma ≥ 0.03): the hue of their mean a, b. */
function meanHue(image: RawImage): number {
  const chromatic = pixels(image).filter((p) => p.c >= 0.03);
  expect(chromatic.length).toBeGreaterThan(image.width * image.height * 0.3);
  const a = chromatic.reduce((s, p) => s + p.a, 0);
  const b = chromatic.reduce((s, p) => s + p.b, 0);
  return (Math.atan2(b, a) * 180) / Math.PI;
}

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const deviation = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
};

function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** The named colour's hue (degrees, OKLCH) as culori reads the vocabulary's hex. */
function hueOf(id: string): number {
  return toOklch(promptColour(id)!.hex)!.h!;
}

describe('colour words', () => {
  const references = { bricks: bricks(SIDE, SIDE), stone: stoneTiles(SIDE, SIDE) };

  it.each(Object.entries(references))(
    'move the mean hue of %s to within 15° of the named colour',
    (_name, reference) => {
      for (const [prompt, id] of [
        ['terracotta floor', 'terracotta'],
        ['verde salvia', 'sage'],
        ['green tiles', 'green'],
        ['azul', 'blue'],
      ] as const) {
        const hue = meanHue(quilt(reference, prompt));
        expect(hueDistance(hue, hueOf(id)), prompt).toBeLessThan(15);
      }
    },
  );

  it('keeps a named colour when the negative prompt names a colour near it', () => {
    const hue = meanHue(quilt(references.stone, 'terracotta', 'red'));
    expect(hueDistance(hue, hueOf('terracotta'))).toBeLessThan(15);
  });

  it('reads Spanish modifiers: "gris cálido" is warmer than "gris frío"', () => {
    const b = (prompt: string) => mean(pixels(quilt(references.stone, prompt)).map((p) => p.b));
    const warm = b('hormigón gris cálido');
    const cool = b('hormigón gris frío');
    expect(warm).toBeGreaterThan(0.01);
    expect(cool).toBeLessThan(-0.01);
    expect(warm - cool).toBeGreaterThan(0.04);
  });

  it('makes a two-tone of two colours: the lighter takes the light parts, the darker the dark', () => {
    const out = pixels(quilt(references.bricks, 'ivory and burgundy bricks'));
    const byLightness = [...out].sort((p, q) => p.l - q.l);
    const tenth = Math.floor(out.length / 10);
    const dark = byLightness.slice(0, 4 * tenth).filter((p) => p.c >= 0.03);
    const light = byLightness.slice(-tenth);
    expect(hueDistance(mean(dark.map((p) => p.h)), hueOf('burgundy'))).toBeLessThan(20);
    expect(mean(light.map((p) => p.l))).toBeGreaterThan(0.85);
    expect(mean(light.map((p) => p.c))).toBeLessThan(0.05);
  });
});

describe('finish words', () => {
  const reference = stoneTiles(SIDE, SIDE);
  const measure = (prompt: string, negative = '') => {
    const out = pixels(quilt(reference, prompt, negative));
    const lightness = out.map((p) => p.l).sort((x, y) => x - y);
    return {
      contrast: deviation(lightness),
      chroma: mean(out.map((p) => p.c)),
      darkest: lightness[Math.floor(lightness.length / 100)]!,
    };
  };
  const plain = measure('stone tiles');

  it('polished: more contrast and colour; matte: less of both', () => {
    const polished = measure('polished stone tiles');
    const matte = measure('matte stone tiles');
    expect(polished.contrast).toBeGreaterThan(plain.contrast * 1.08);
    expect(polished.chroma).toBeGreaterThan(plain.chroma * 1.08);
    expect(matte.contrast).toBeLessThan(plain.contrast * 0.92);
    expect(matte.chroma).toBeLessThan(plain.chroma * 0.9);
  });

  it('weathered: faded colour, lifted blacks', () => {
    const weathered = measure('envejecido');
    expect(weathered.chroma).toBeLessThan(plain.chroma * 0.8);
    expect(weathered.darkest).toBeGreaterThan(plain.darkest + 0.03);
  });

  it('a finish the negative prompt names too is cancelled', () => {
    const options: SynthesisOptions = { ...FORM_DEFAULTS, width: SIDE, height: SIDE, seed: 11 };
    const plan = promptPlan({ positivePrompt: 'polished', negativePrompt: 'polished' });
    expect(plan.finish).toBeUndefined();
    expect(applyPrompts(reference, options, plan).reference).toBe(reference);
  });
});

describe('a colour in the negative prompt', () => {
  /** Red blotches on the left ~40 %, grey stone on the right: both with grain. */
  function redAndGrey(): RawImage {
    const rng = mulberry32(31);
    const data = new Uint8Array(SIDE * SIDE * 4);
    for (let y = 0; y < SIDE; y++) {
      for (let x = 0; x < SIDE; x++) {
        const p = (y * SIDE + x) * 4;
        const grain = rng.next() * 40 - 20;
        const blotch = 15 * Math.sin(x / 7) * Math.cos(y / 9);
        const rgb =
          x < 100
            ? [185 + grain + blotch, 45 + grain / 3, 40 + grain / 3]
            : [128 + grain + blotch, 126 + grain + blotch, 122 + grain];
        data.set([...rgb.map(clamp8), 255], p);
      }
    }
    return { data, width: SIDE, height: SIDE };
  }

  /** Share of pixels within 30° of red's hue with chroma ≥ 0.06. */
  const redShare = (image: RawImage) => {
    const red = hueOf('red');
    const all = pixels(image);
    return all.filter((p) => p.c >= 0.06 && hueDistance(p.h, red) < 30).length / all.length;
  };

  it('keeps its patches out of the output and pulls what remains away from it', () => {
    const reference = redAndGrey();
    const plain = redShare(quilt(reference, 'stone'));
    const avoided = redShare(quilt(reference, 'stone', 'red, blurry'));
    expect(plain).toBeGreaterThan(0.3);
    expect(avoided).toBeLessThan(plain / 10);
  });

  it('is only pulled away from when it is everywhere (nothing else to copy)', () => {
    const reference = bricks(SIDE, SIDE);
    const options: SynthesisOptions = { ...FORM_DEFAULTS, width: SIDE, height: SIDE, seed: 11 };
    const prepared = applyPrompts(
      reference,
      options,
      promptPlan({ positivePrompt: '', negativePrompt: 'red' }),
    );
    expect(prepared.options.mask).toBe(false);
    expect(redShare(synthesize(prepared.reference, prepared.options))).toBeLessThan(
      redShare(synthesize(reference, options)) / 2,
    );
  });
});
