import type { Logger } from 'pino';
import { BuiltinEngine } from './builtin/builtin-engine.js';
import { ComfyUIEngine, type ComfyUIEngineOptions } from './comfyui/comfyui-engine.js';
import type { ComfyUISettings } from './comfyui/settings.js';
import type { Engine } from './engine.js';
import type { EngineSettings } from './settings.js';

export type { ComfyUISettings } from './comfyui/settings.js';
export type { EngineSettings } from './settings.js';

/** The ComfyUI engine's options from its settings (COMFYUI_*). */
export function comfyOptions(
  config: ComfyUISettings,
  instance?: string,
  log?: Logger,
): ComfyUIEngineOptions {
  return {
    urls: config.urls,
    ...(instance !== undefined && { instance }),
    ...(log !== undefined && { log }),
    outageWindowMs: config.outageWindowMs,
    pool: {
      failingAfter: config.failingAfter,
      failingPauseMs: config.failingPauseMs,
      retryAfterMs: config.probeBackoffMs,
      maxRetryAfterMs: config.probeBackoffMaxMs,
    },
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
export function createEngine(config: EngineSettings, log?: Logger): Engine {
  switch (config.engine) {
    case 'builtin':
      return new BuiltinEngine({ upscaler: config.builtinUpscaler });
    case 'comfyui':
      if (!config.comfyui) throw new Error('ENGINE=comfyui needs COMFYUI_URLS');
      return new ComfyUIEngine(comfyOptions(config.comfyui, config.instanceName, log));
  }
}
