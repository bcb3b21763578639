import { describe, expect, it } from 'vitest';
import {
  FIXED_SEED,
  GENERATION_DEFAULTS,
  GENERATION_RANGES,
  PREVIEW_REQUEST_FIELDS,
  previewMetadata,
  previewRequestFields,
  previewRequestSchema,
  previewSettingsIn,
  previewSettingsOf,
  reusableSeed,
  seedFor,
  styleFromWeight,
  validateGenerationForm,
  weightFromStyle,
  type GenerationForm,
} from './generation.js';
import { readImageMetadata } from './metadata.js';

const form: GenerationForm = {
  ...GENERATION_DEFAULTS,
  positivePrompt: 'mossy stone wall',
  negativePrompt: 'blurry',
};

const validFields = previewRequestFields({
  id: 'job-1',
  user: 'alice',
  imageName: 'ref.png',
  form,
  seed: 10,
});

function previewErrors(overrides: Record<string, string>): string[] {
  const result = previewRequestSchema.safeParse({ ...validFields, ...overrides });
  // One entry per failing field, however many of its rules failed.
  return result.success ? [] : [...new Set(result.error.issues.map((i) => i.path.join('.')))];
}

describe('generation form defaults and ranges', () => {
  it('[G7] has the defaults of the spec', () => {
    expect(GENERATION_DEFAULTS).toEqual({
      imaginationWeight: 3.5,
      similarity: 1,
      promptAdherence: 0.9,
      styleWeight: 0,
      tiling: false,
      mask: false,
      batchSize: 1,
      faces: 1,
      synthesis: 'auto',
      use_fixed_seed: true,
      seed: 10,
      latent_width: 1024,
      latent_height: 1024,
    });
  });

  it('[G8] has the ranges of the spec', () => {
    expect(GENERATION_RANGES).toEqual({
      imaginationWeight: { min: 0, max: 20, step: 0.1 },
      similarity: { min: 0, max: 1, step: 0.1 },
      promptAdherence: { min: 0, max: 2, step: 0.1 },
      styleWeight: { min: 0, max: 100, step: 1 },
      batchSize: { min: 1, max: 10, step: 1 },
      faces: { min: 1, max: 12, step: 1 },
    });
  });

  it('converts style weight to stored style and back', () => {
    expect(styleFromWeight(35)).toBe(0.35);
    expect(styleFromWeight(100)).toBe(1);
    expect(weightFromStyle(0.07)).toBe(7);
    expect(weightFromStyle(0.35)).toBe(35);
  });
});

describe('seeds', () => {
  it('an image seed is reused when a preview request can carry it (issue 22, part 12)', () => {
    expect(seedFor(true, () => 0.5, 123456)).toBe(123456);
    expect(seedFor(false, () => 0, 123456)).toBe(0);
    expect(reusableSeed('123456')).toBe(123456);
    expect(reusableSeed('0')).toBe(0);
    expect(reusableSeed('4294967295')).toBe(4_294_967_295);
    expect(reusableSeed('4294967296')).toBeUndefined();
    expect(reusableSeed(undefined)).toBeUndefined();
  });

  it('[G11] uses 10 when use_fixed_seed is on', () => {
    expect(FIXED_SEED).toBe(10);
    expect(seedFor(true, () => 0.5)).toBe(10);
  });

  it('[G11] otherwise draws an integer below 2^32', () => {
    expect(seedFor(false, () => 0)).toBe(0);
    expect(seedFor(false, () => 0.5)).toBe(2_147_483_648);
    expect(seedFor(false, () => 0.9999999999)).toBe(4_294_967_295);
    expect(seedFor(false, () => 1)).toBe(4_294_967_295);
    const seed = seedFor(false);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
  });
});

describe('form validation on the client', () => {
  it('[G9] passes a complete form', () => {
    expect(validateGenerationForm(form)).toEqual({});
  });

  it('[G9] requires both prompts', () => {
    expect(validateGenerationForm({ ...form, positivePrompt: '', negativePrompt: '  ' })).toEqual({
      positivePrompt: 'El prompt positivo es obligatorio',
      negativePrompt: 'El prompt negativo es obligatorio',
    });
  });

  it('[G8] checks each range at its bounds', () => {
    const at = (patch: Partial<GenerationForm>) => validateGenerationForm({ ...form, ...patch });
    expect(
      at({ imaginationWeight: 20, similarity: 0, promptAdherence: 2, styleWeight: 100 }),
    ).toEqual({});
    expect(at({ imaginationWeight: 20.1 })).toEqual({
      imaginationWeight: 'Debe ser un número de 0 a 20',
    });
    expect(at({ similarity: 1.1 })).toEqual({ similarity: 'Debe ser un número de 0 a 1' });
    expect(at({ promptAdherence: -0.1 })).toEqual({
      promptAdherence: 'Debe ser un número de 0 a 2',
    });
    expect(at({ styleWeight: 101 })).toEqual({ styleWeight: 'Debe ser un número de 0 a 100' });
    expect(at({ imaginationWeight: Number.NaN })).toEqual({
      imaginationWeight: 'Debe ser un número de 0 a 20',
    });
  });

  it('[G8] takes a whole batch size from 1 to 10', () => {
    const batch = (batchSize: number) => validateGenerationForm({ ...form, batchSize }).batchSize;
    expect(batch(1)).toBeUndefined();
    expect(batch(10)).toBeUndefined();
    expect(batch(0)).toBe('Debe ser un número entero de 1 a 10');
    expect(batch(11)).toBe('Debe ser un número entero de 1 a 10');
    expect(batch(2.5)).toBe('Debe ser un número entero de 1 a 10');
  });

  it('takes a whole number of faces from 1 to 12 (issue 25)', () => {
    const faces = (n: number) => validateGenerationForm({ ...form, faces: n }).faces;
    expect(faces(1)).toBeUndefined();
    expect(faces(12)).toBeUndefined();
    for (const bad of [0, 13, 2.5, Number.NaN]) {
      expect(faces(bad)).toBe('Debe ser un número entero de 1 a 12');
    }
  });

  it('[G10] requires the latent size of an output format', () => {
    expect(validateGenerationForm({ ...form, latent_width: 724, latent_height: 1448 })).toEqual({
      outputFormat: 'Elige uno de los formatos de salida',
    });
  });
});

describe('preview request', () => {
  it('[P1] builds the multipart text fields from the form', () => {
    expect(
      previewRequestFields({
        id: 'job-2',
        user: 'bob',
        imageName: 'ref.webp',
        form: { ...form, styleWeight: 35, tiling: true, use_fixed_seed: false },
        seed: 4_294_967_295,
      }),
    ).toEqual({
      id: 'job-2',
      user: 'bob',
      image: 'ref.webp',
      cliptextencode_585: 'mossy stone wall',
      cliptextencode_716: 'blurry',
      ipadapter_weight: '0.9',
      style: '0.35',
      ksampler_cfg: '3.5',
      ksampler_denoise: '1',
      use_fixed_seed: 'False',
      latent_width: '1024',
      latent_height: '1024',
      Kseed: '4294967295',
      seamless: 'enable',
      circularVAE: 'enable',
      mask: 'disable',
    });
  });

  it('[P1] parses the fields, turning numeric strings into numbers', () => {
    expect(previewRequestSchema.parse(validFields)).toEqual({
      id: 'job-1',
      user: 'alice',
      image: 'ref.png',
      cliptextencode_585: 'mossy stone wall',
      cliptextencode_716: 'blurry',
      ipadapter_weight: 0.9,
      style: 0,
      ksampler_cfg: 3.5,
      ksampler_denoise: 1,
      use_fixed_seed: 'True',
      latent_width: 1024,
      latent_height: 1024,
      Kseed: 10,
      seamless: 'disable',
      circularVAE: 'disable',
      mask: 'disable',
      faces: 1,
      synthesis: 'auto',
    });
    expect(previewRequestSchema.parse({ ...validFields, mask: 'enable' }).mask).toBe('enable');
    expect(previewRequestSchema.safeParse({ ...validFields, mask: 'on' }).success).toBe(false);
  });

  it('takes faces from 1 to 12, 1 when absent, and sends them only for a series (issue 25)', () => {
    expect(previewRequestSchema.parse({ ...validFields, faces: '4' }).faces).toBe(4);
    expect(previewRequestSchema.parse({ ...validFields, faces: '12' }).faces).toBe(12);
    for (const bad of ['0', '13', '2.5', 'four']) {
      expect(previewRequestSchema.safeParse({ ...validFields, faces: bad }).success).toBe(false);
    }
    const fields = (faces: number) =>
      previewRequestFields({
        id: 'a',
        user: 'u',
        imageName: 'r.png',
        form: { ...form, faces },
        seed: 1,
      });
    expect(fields(1)).not.toHaveProperty('faces');
    expect(fields(4).faces).toBe('4');
  });

  it('takes a synthesis mode, auto when absent, and sends it only when not auto (issue 27)', () => {
    expect(previewRequestSchema.parse({ ...validFields, synthesis: 'blending' }).synthesis).toBe(
      'blending',
    );
    expect(previewRequestSchema.safeParse({ ...validFields, synthesis: 'noise' }).success).toBe(
      false,
    );
    const fields = (synthesis: 'auto' | 'quilting') =>
      previewRequestFields({
        id: 'a',
        user: 'u',
        imageName: 'r.png',
        form: { ...form, synthesis },
        seed: 1,
      });
    expect(fields('auto')).not.toHaveProperty('synthesis');
    expect(fields('quilting').synthesis).toBe('quilting');
  });

  it('[G9] [P1] requires both prompts, at most 2000 characters each', () => {
    expect(previewErrors({ cliptextencode_585: '' })).toEqual(['cliptextencode_585']);
    expect(previewErrors({ cliptextencode_716: ' \n ' })).toEqual(['cliptextencode_716']);
    expect(previewErrors({ cliptextencode_585: 'a'.repeat(2000) })).toEqual([]);
    expect(previewErrors({ cliptextencode_585: 'a'.repeat(2001) })).toEqual(['cliptextencode_585']);
  });

  it('[G8] [P1] range-checks the numeric fields at their bounds', () => {
    expect(
      previewErrors({
        ksampler_cfg: '20',
        ksampler_denoise: '0',
        ipadapter_weight: '2',
        style: '1',
      }),
    ).toEqual([]);
    expect(previewErrors({ ksampler_cfg: '20.1' })).toEqual(['ksampler_cfg']);
    expect(previewErrors({ ksampler_denoise: '1.1' })).toEqual(['ksampler_denoise']);
    expect(previewErrors({ ipadapter_weight: '2.01' })).toEqual(['ipadapter_weight']);
    expect(previewErrors({ style: '1.01' })).toEqual(['style']);
    expect(previewErrors({ style: '-0.01' })).toEqual(['style']);
  });

  it('[P1] refuses numeric fields that are not numbers', () => {
    for (const value of ['', 'abc', '0x10', 'Infinity', '1,5']) {
      expect(previewErrors({ ksampler_cfg: value }), value).toEqual(['ksampler_cfg']);
    }
  });

  it("[P1] takes use_fixed_seed 'True' or 'False' and seamless/circularVAE 'enable' or 'disable'", () => {
    expect(previewErrors({ use_fixed_seed: 'False', seamless: 'enable' })).toEqual([]);
    expect(previewErrors({ use_fixed_seed: 'true' })).toEqual(['use_fixed_seed']);
    expect(previewErrors({ seamless: 'on', circularVAE: 'yes' })).toEqual([
      'seamless',
      'circularVAE',
    ]);
  });

  it('[G10] [P1] takes only the latent size of an output format', () => {
    expect(previewErrors({ latent_width: '1448', latent_height: '724' })).toEqual([]);
    expect(previewErrors({ latent_width: '2506', latent_height: '418' })).toEqual([]);
    expect(previewErrors({ latent_width: '724', latent_height: '1448' })).toEqual(['latent_width']);
    expect(previewErrors({ latent_width: '1024', latent_height: '724' })).toEqual(['latent_width']);
  });

  it('[G11] [P1] takes a Kseed from 0 to 2^32 - 1', () => {
    expect(previewErrors({ Kseed: '0' })).toEqual([]);
    expect(previewErrors({ Kseed: '4294967295' })).toEqual([]);
    expect(previewErrors({ Kseed: '4294967296' })).toEqual(['Kseed']);
    expect(previewErrors({ Kseed: '-1' })).toEqual(['Kseed']);
    expect(previewErrors({ Kseed: '1.5' })).toEqual(['Kseed']);
  });

  it('[P1] takes the image as a file name, never a path', () => {
    expect(previewErrors({ image: '../secret.png' })).toEqual(['image']);
    expect(previewErrors({ image: 'dir/ref.png' })).toEqual(['image']);
  });
});

describe('preview settings', () => {
  const request = previewRequestSchema.parse(
    previewRequestFields({
      id: 'job-3',
      user: 'carol',
      imageName: 'ref.png',
      form: { ...form, styleWeight: 35, tiling: true, mask: true, similarity: 0.4 },
      seed: 77,
    }),
  );

  it('[P1] lists the wire fields in the order of SPEC §7, then mask, faces and synthesis (ours)', () => {
    expect(PREVIEW_REQUEST_FIELDS).toEqual([
      'id',
      'user',
      'image',
      'cliptextencode_585',
      'cliptextencode_716',
      'ipadapter_weight',
      'style',
      'ksampler_cfg',
      'ksampler_denoise',
      'use_fixed_seed',
      'latent_width',
      'latent_height',
      'Kseed',
      'seamless',
      'circularVAE',
      'mask',
      'faces',
      'synthesis',
    ]);
  });

  it('reads the settings off a preview request', () => {
    expect(previewSettingsOf(request)).toEqual({
      positivePrompt: 'mossy stone wall',
      negativePrompt: 'blurry',
      imaginationWeight: 3.5,
      similarity: 0.4,
      promptAdherence: 0.9,
      style: 0.35,
      seed: 77,
      width: 1024,
      height: 1024,
      seamless: true,
      mask: true,
      synthesis: 'auto',
    });
  });

  it('records them under the metadata keys of SPEC §3, in a fixed order, and nothing else', () => {
    // A job's params are settings and more (its owner, its reference): only settings are recorded.
    const params = { ...previewSettingsOf(request), inputFile: 'ref-1a2b.png' };
    const metadata = previewMetadata(params);
    expect(Object.entries(metadata)).toEqual([
      ['cliptextencode_585', 'mossy stone wall'],
      ['cliptextencode_716', 'blurry'],
      ['ksampler_cfg', 3.5],
      ['ksampler_denoise', 0.4],
      ['ipadapter_weight', 0.9],
      ['style', 0.35],
      ['kseed', 77],
      ['latent_width', 1024],
      ['latent_height', 1024],
      ['seamless', true],
      ['mask', true],
      ['synthesis', 'auto'],
    ]);
  });

  it('takes only the settings off what carries them and more, each of them', () => {
    const settings = previewSettingsOf(request);
    const engineParams = { ...settings, referencePath: '/tmp/ref.png', outputPath: '/tmp/out.png' };
    expect(previewSettingsIn(engineParams)).toEqual(settings);
    expect(Object.keys(previewSettingsIn(engineParams)).sort()).toEqual(
      Object.keys(settings).sort(),
    );
  });

  it('[M1] reads back from the metadata what was recorded', () => {
    const read = readImageMetadata(previewMetadata(previewSettingsOf(request)));
    expect(read).toMatchObject({
      positivePrompt: 'mossy stone wall',
      negativePrompt: 'blurry',
      imaginationWeight: 3.5,
      similarity: 0.4,
      promptAdherence: 0.9,
      style: 0.35,
      styleWeight: 35,
      seed: '77',
      latentWidth: 1024,
      latentHeight: 1024,
    });
  });
});
