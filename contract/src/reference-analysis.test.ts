import { describe, expect, it } from 'vitest';
import { errorText } from './errors.js';
import { shownErrorText } from './text-bundles.js';
import {
  REFERENCE_ERROR_TEXTS,
  REFERENCE_ERROR_TEXTS_EN,
  REFERENCE_PREP_TEXTS,
  REFERENCE_PREP_TEXTS_EN,
  REFERENCE_WARNING_CODES,
  REFERENCE_WARNING_TEXTS,
  REFERENCE_WARNING_TEXTS_EN,
  referenceAnalysisSchema,
  referenceWarnings,
} from './reference-analysis.js';

describe('reference warnings (issue 27, part 5)', () => {
  it.each([
    [REFERENCE_WARNING_TEXTS, REFERENCE_PREP_TEXTS],
    [REFERENCE_WARNING_TEXTS_EN, REFERENCE_PREP_TEXTS_EN],
  ])('has its own text for every code, each naming the step that helps', (warnings, prep) => {
    const texts = REFERENCE_WARNING_CODES.map((code) => warnings[code]);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(text).toContain(prep.prepare);
  });

  it('writes the warnings of the codes out in their order', () => {
    expect(referenceWarnings(['object', 'perspective'])).toEqual([
      { code: 'object', message: REFERENCE_WARNING_TEXTS.object },
      { code: 'perspective', message: REFERENCE_WARNING_TEXTS.perspective },
    ]);
  });

  it('files the busy refusal under its code, from this file', () => {
    expect(errorText('REFERENCE_CHECKS_BUSY')).toBe(REFERENCE_ERROR_TEXTS_EN.busy);
    expect(shownErrorText('es', 'REFERENCE_CHECKS_BUSY')).toBe(REFERENCE_ERROR_TEXTS.busy);
  });

  it('refuses an answer with an unknown warning or without its figures', () => {
    const warnings = [{ code: 'blur', message: 'x' }];
    expect(referenceAnalysisSchema.safeParse({ width: 1, height: 1, warnings }).success).toBe(
      false,
    );
  });
});
