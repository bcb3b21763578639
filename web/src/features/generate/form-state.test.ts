import { seriesMetadata } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELDS, fieldsFromMetadata, toGenerationForm } from './form-state';

describe('the form read from an image', () => {
  it("carries the image's seed, fixed, so the same image can be made again (issue 22, part 12)", () => {
    const random = { ...DEFAULT_FIELDS, useFixedSeed: false };
    const fields = fieldsFromMetadata({ kseed: 123456 }, random);
    expect(fields).toMatchObject({ useFixedSeed: true, fixedSeed: 123456 });
    expect(toGenerationForm(fields)).toMatchObject({ use_fixed_seed: true, seed: 123456 });
    expect(fieldsFromMetadata({ seed: '77' }, random)).toMatchObject({
      useFixedSeed: true,
      fixedSeed: 77,
    });
  });

  it('leaves a random seed for a seed a preview request cannot carry, and keeps the form without one', () => {
    expect(fieldsFromMetadata({ kseed: '18446744073709551615' }, DEFAULT_FIELDS)).toMatchObject({
      useFixedSeed: false,
      fixedSeed: 10,
    });
    const random = { ...DEFAULT_FIELDS, useFixedSeed: false };
    expect(fieldsFromMetadata({}, random)).toMatchObject({ useFixedSeed: false, fixedSeed: 10 });
  });

  it("repeats the faces of a face's series (issue 25); an image without them is one face", () => {
    const asked = { ...DEFAULT_FIELDS, faces: '6' };
    const face = seriesMetadata({ seriesId: 'slate-1a', face: 2, faces: 4 });
    expect(fieldsFromMetadata(face, asked).faces).toBe('4');
    expect(toGenerationForm(fieldsFromMetadata(face, asked)).faces).toBe(4);
    expect(fieldsFromMetadata({ kseed: 5 }, asked).faces).toBe('1');
    // A faces key no form can hold is no series size either.
    expect(fieldsFromMetadata({ faces: 40 }, asked).faces).toBe('1');
    expect(fieldsFromMetadata({ faces: '3' }, asked).faces).toBe('3');
  });
});

describe('the synthesis mode (issue 27)', () => {
  it('is Automatic by default, and the form sends what is chosen', () => {
    expect(DEFAULT_FIELDS.synthesis).toBe('auto');
    expect(toGenerationForm(DEFAULT_FIELDS).synthesis).toBe('auto');
    expect(toGenerationForm({ ...DEFAULT_FIELDS, synthesis: 'blending' }).synthesis).toBe(
      'blending',
    );
  });

  it("repeats an image's mode; an image without one (or with an unknown one) was Automatic", () => {
    const asked = { ...DEFAULT_FIELDS, synthesis: 'quilting' as const };
    expect(fieldsFromMetadata({ synthesis: 'blending' }, DEFAULT_FIELDS).synthesis).toBe(
      'blending',
    );
    expect(fieldsFromMetadata({ synthesis: 'auto' }, asked).synthesis).toBe('auto');
    expect(fieldsFromMetadata({ kseed: 5 }, asked).synthesis).toBe('auto');
    expect(fieldsFromMetadata({ synthesis: 'collage' }, asked).synthesis).toBe('auto');
    // The mode the engine used is not what was asked: Automatic stays Automatic.
    expect(
      fieldsFromMetadata({ synthesis: 'auto', synthesis_used: 'blending' }, asked).synthesis,
    ).toBe('auto');
  });
});
