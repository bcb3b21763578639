import { describe, expect, it } from 'vitest';
import {
  hdSeedFromMetadata,
  readImageMetadata,
  readPromptTerms,
  readSeed,
  readSeriesFace,
  seriesMetadata,
} from './metadata.js';
import { understandPrompts } from './prompt-vocabulary.js';

describe('image metadata', () => {
  it('[Z3] [M1] reads every field of the spec', () => {
    const view = readImageMetadata({
      input_image_path: 'input/ref.png',
      cliptextencode_585: 'mossy stone',
      cliptextencode_716: 'blurry',
      ksampler_cfg: 3.5,
      ksampler_denoise: 0.8,
      ipadapter_weight: 0.9,
      style: 0.35,
      kseed: 1234,
      latent_width: 1448,
      latent_height: 724,
      created_at: '2024-01-02T03:04:05Z',
      updatedAt: '2024-02-03T04:05:06Z',
      rescale_factor_cr711: 1.74,
      scale_by_latent707: 1,
      rescale_factor_cr701: 1.5,
      scale_by_image692: 1.9,
    });
    expect(view).toEqual({
      inputImagePath: 'input/ref.png',
      positivePrompt: 'mossy stone',
      negativePrompt: 'blurry',
      imaginationWeight: 3.5,
      similarity: 0.8,
      promptAdherence: 0.9,
      style: 0.35,
      styleWeight: 35,
      seed: '1234',
      latentWidth: 1448,
      latentHeight: 724,
      createdAt: new Date('2024-01-02T03:04:05Z'),
      updatedAt: new Date('2024-02-03T04:05:06Z'),
      rescaleFactorCr711: 1.74,
      scaleByLatent707: 1,
      rescaleFactorCr701: 1.5,
      scaleByImage692: 1.9,
      sizeLabel: '30x60',
    });
  });

  it('[Z3] tolerates numbers written as strings', () => {
    const view = readImageMetadata({
      ksampler_cfg: '7.5',
      ksampler_denoise: ' 0.6 ',
      style: '0.07',
      latent_width: '1024',
      creation_date: '1700000000',
    });
    expect(view.imaginationWeight).toBe(7.5);
    expect(view.similarity).toBe(0.6);
    expect(view.styleWeight).toBe(7);
    expect(view.latentWidth).toBe(1024);
    expect(view.createdAt?.getTime()).toBe(1_700_000_000_000);
  });

  it('[Z3] leaves missing or malformed fields undefined', () => {
    const view = readImageMetadata({ ksampler_cfg: 'lots', cliptextencode_585: 42, style: null });
    expect(view.imaginationWeight).toBeUndefined();
    expect(view.positivePrompt).toBeUndefined();
    expect(view.style).toBeUndefined();
    expect(view.styleWeight).toBeUndefined();
    expect(view.sizeLabel).toBeUndefined();
    expect(view.createdAt).toBeUndefined();
  });

  it('[M1] reads kseed, else seed', () => {
    expect(readSeed({ kseed: 5, seed: 6 })).toBe('5');
    expect(readSeed({ seed: '6' })).toBe('6');
    expect(readSeed({ kseed: 'abc', seed: 7 })).toBe('7');
    expect(readSeed({ kseed: '18446744073709551615' })).toBe('18446744073709551615');
    expect(readSeed({ kseed: -1 })).toBeUndefined();
    expect(readSeed({ kseed: 1.5 })).toBeUndefined();
  });

  it("[M7] takes the HD seed from kseed or seed, falling back to '10'", () => {
    expect(hdSeedFromMetadata({ kseed: 123, seed: 456 })).toBe('123');
    expect(hdSeedFromMetadata({ seed: 456 })).toBe('456');
    expect(hdSeedFromMetadata({})).toBe('10');
    expect(hdSeedFromMetadata({ kseed: 'random' })).toBe('10');
  });
});

describe('a face of a series (issue 25)', () => {
  it('is written under series_id, face and faces, and read back', () => {
    const face = { seriesId: 'marble-3fa2c1', face: 2, faces: 4 };
    const metadata = seriesMetadata(face);
    expect(metadata).toEqual({ series_id: 'marble-3fa2c1', face: 2, faces: 4 });
    expect(readSeriesFace(metadata)).toEqual(face);
    expect(readImageMetadata({ ...metadata, kseed: 10 }).series).toEqual(face);
  });

  it('is absent on a single image and on keys that do not make a face', () => {
    expect(readImageMetadata({ kseed: 10 }).series).toBeUndefined();
    for (const broken of [
      { series_id: '', face: 1, faces: 2 },
      { series_id: 's', face: 0, faces: 2 },
      { series_id: 's', face: 3, faces: 2 },
      { series_id: 's', face: 1.5, faces: 2 },
      { series_id: 7, face: 1, faces: 2 },
      { series_id: 's', face: 1 },
    ]) {
      expect(readSeriesFace(broken)).toBeUndefined();
    }
  });
});

describe('the builtin engine’s record of a generation (issue 27)', () => {
  const terracotta = { kind: 'colour', id: 'terracotta', modifiers: [], text: 'terracota' };
  const large = { kind: 'scale', id: 'large', text: 'piezas grandes' };
  const polished = { kind: 'finish', id: 'polished', text: 'pulido' };

  it('reads the understood words of both prompts, and the synthesis mode asked and used', () => {
    const view = readImageMetadata({
      prompt_terms: { positive: [terracotta, large, polished], negative: [terracotta] },
      synthesis: 'auto',
      synthesis_used: 'blending',
    });
    expect(view.promptTerms).toEqual({
      positive: [terracotta, large, polished],
      negative: [terracotta],
    });
    expect(view.synthesis).toBe('auto');
    expect(view.synthesisUsed).toBe('blending');
    expect(readImageMetadata({ synthesis: 'quilting' }).synthesis).toBe('quilting');
  });

  it('has none for an image without them (another engine, or before issue 27)', () => {
    const view = readImageMetadata({ cliptextencode_585: 'terracotta' });
    expect(view.promptTerms).toBeUndefined();
    expect(view.synthesis).toBeUndefined();
    expect(view.synthesisUsed).toBeUndefined();
    expect(readPromptTerms({ prompt_terms: 'terracotta' })).toBeUndefined();
    expect(readPromptTerms({ prompt_terms: [terracotta] })).toBeUndefined();
  });

  it('leaves out what it cannot read, term by term', () => {
    expect(
      readPromptTerms({
        prompt_terms: {
          positive: [terracotta, { kind: 'smell', id: 'x', text: 'x' }, { id: 'large' }, 7, large],
          negative: 'polished',
        },
      }),
    ).toEqual({ positive: [terracotta, large], negative: [] });
    expect(
      readPromptTerms({
        prompt_terms: { positive: [{ ...terracotta, modifiers: ['sparkly'] }] },
      }),
    ).toEqual({ positive: [], negative: [] });
    // 'auto' is asked for, never used; an unknown mode is neither.
    expect(readImageMetadata({ synthesis: 'collage', synthesis_used: 'auto' })).toMatchObject({
      synthesis: undefined,
      synthesisUsed: undefined,
    });
  });

  it('reads back what understandPrompts records', () => {
    const terms = understandPrompts('Warm grey piezas grandes, pulido', 'blanco roto');
    expect(readPromptTerms({ prompt_terms: terms })).toEqual(terms);
  });
});
