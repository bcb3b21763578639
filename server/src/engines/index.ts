import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { BuiltinEngine } from './builtin/builtin-engine.js';
import { ComfyUIEngine } from './comfyui/comfyui-engine.js';
import type { Engine } from './engine.js';

/** The ComfyUI engine's options from the configuration (COMFYUI_*). */
export function comfyOptions(
  config: NonNullable<Config['comfyui']>,
  instance?: string,
  log?: Logger,
): ConstructorParameters<typeof ComfyUIEngine>[0] {
  return {
    urls: config.urls,
    ...(instance !== undefined && { instance }),
    ...(log !== undefined && { log }),
    outageWindowMs: config.outageWindowMs,
    pool: { failingAfter: config.failingAfter },
    ...(config.workflowsDir ? { workflowsDir: config.workflowsDir } : {}),
    client: {
      auth: config.auth,
      requestTimeoutMs: config.requestTimeoutMs,
      socketTimeoutMs: config.socketTimeoutMs,
      transferIdleTimeoutMs: config.transferIdleTimeoutMs,
    },
    ...(config.promptDeadlineMs > 0 ? { prompt: { deadlineMs: config.promptDeadlineMs } } : {}),
  };
}

/** The engine the configuration names (ENGINE). */
export function createEngine(
  config: Pick<Config, 'engine' | 'builtinUpscaler' | 'comfyui'> &
    Partial<Pick<Config, 'instanceName'>>,
  log?: Logger,
): Engine {
  switch (config.engine) {
    case 'builtin':
      return new BuiltinEngine({ upscaler: config.builtinUpscaler });
    case 'comfyui':
      if (!config.comfyui) throw new Error('ENGINE=comfyui needs COMFYUI_URLS');
      return new ComfyUIEngine(comfyOptions(config.comfyui, config.instanceName, log));
  }
}
