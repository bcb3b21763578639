/**
 * The engines' settings (ENGINE, BUILTIN_UPSCALER, COMFYUI_*): their variables and checks, which
 * config.ts composes with the other parts', and what createEngine takes from them.
 */
import { z } from 'zod';
import type { EnvProblem } from '../runtime/env-schema.js';
import type { BuiltinEngineOptions } from './builtin/builtin-engine.js';
import { builtinEnv } from './builtin/settings.js';
import {
  checkComfyUIEnv,
  comfyUIEnv,
  comfyUISettings,
  type ComfyUISettings,
} from './comfyui/settings.js';
import { ENGINE_NAMES } from './engine.js';

const enginesEnvSchema = z.object({
  ENGINE: z
    .enum(ENGINE_NAMES, { error: `must be ${ENGINE_NAMES.join(' or ')}` })
    .default('builtin'),
  ...builtinEnv,
  ...comfyUIEnv,
});

/** The engines' environment variables, as config.ts reads them. */
export const enginesEnv = enginesEnvSchema.shape;
type EnginesEnv = z.output<typeof enginesEnvSchema>;

/** What the variables' own schemas cannot see: the ComfyUI engine needs its servers. */
export function checkEnginesEnv(env: EnginesEnv, problem: EnvProblem): void {
  checkComfyUIEnv(env, problem);
  if (env.ENGINE === 'comfyui' && !env.COMFYUI_URLS) {
    problem('COMFYUI_URLS', 'is required with ENGINE=comfyui (one or more ComfyUI base URLs)');
  }
}

/** What createEngine takes. */
export interface EngineSettings {
  /** Which engine makes images (DESIGN §5). */
  engine: (typeof ENGINE_NAMES)[number];
  /** The builtin engine's HD pass: the ESRGAN network, or sharp's Lanczos alone (fast, for trials). */
  builtinUpscaler: BuiltinEngineOptions['upscaler'];
  /**
   * ENGINE=comfyui: the servers jobs are spread over, the operator's own workflow templates, how
   * Tessera proves itself to a proxy in front of them, and the timeouts (docs/comfyui.md).
   */
  comfyui?: ComfyUISettings;
  /** INSTANCE_NAME: the ComfyUI upload slots are named after it. */
  instanceName?: string;
}

export function engineSettings(env: EnginesEnv): Omit<EngineSettings, 'instanceName'> {
  return {
    engine: env.ENGINE,
    builtinUpscaler: env.BUILTIN_UPSCALER,
    ...(env.COMFYUI_URLS ? { comfyui: comfyUISettings(env, env.COMFYUI_URLS) } : {}),
  };
}
