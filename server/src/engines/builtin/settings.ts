/** The builtin engine's setting (BUILTIN_UPSCALER), which config.ts composes with the other parts'. */
import { z } from 'zod';
import type { BuiltinEngineOptions } from './builtin-engine.js';

const BUILTIN_UPSCALERS = [
  'esrgan',
  'esrgan-medium',
  'lanczos',
] as const satisfies readonly BuiltinEngineOptions['upscaler'][];

/** The builtin engine's environment variables, as config.ts reads them. */
export const builtinEnv = {
  /** The HD pass: the ESRGAN network, or sharp's Lanczos alone (fast, for trials). */
  BUILTIN_UPSCALER: z
    .enum(BUILTIN_UPSCALERS, { error: 'must be esrgan, esrgan-medium or lanczos' })
    .default('esrgan'),
};
