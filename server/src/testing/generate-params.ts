/** Engine parameters for tests and benchmarks. */
import { GENERATION_DEFAULTS } from '@tessera/contract';
import type { GenerateParams } from '../engines/engine.js';

/** The generation form's defaults (SPEC §3, checklist G7) as the engines take them. */
export const FORM_DEFAULTS = {
  seamless: GENERATION_DEFAULTS.tiling,
  mask: GENERATION_DEFAULTS.mask,
  similarity: GENERATION_DEFAULTS.similarity,
  imaginationWeight: GENERATION_DEFAULTS.imaginationWeight,
  promptAdherence: GENERATION_DEFAULTS.promptAdherence,
  style: GENERATION_DEFAULTS.styleWeight / 100,
} satisfies Partial<GenerateParams>;
