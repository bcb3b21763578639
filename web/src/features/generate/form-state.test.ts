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
});
