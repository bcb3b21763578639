import type { Config } from '../config.js';
import { BuiltinEngine } from './builtin/builtin-engine.js';
import { ComfyUIEngine } from './comfyui/comfyui-engine.js';
import type { Engine } from './engine.js';

/** The engine the configuration names (ENGINE). */
export function createEngine(
  config: Pick<Config, 'engine' | 'builtinUpscaler' | 'comfyui'>,
): Engine {
  switch (config.engine) {
    case 'builtin':
      return new BuiltinEngine({ upscaler: config.builtinUpscaler });
    case 'comfyui':
      if (!config.comfyui) throw new Error('ENGINE=comfyui needs COMFYUI_URLS');
      return new ComfyUIEngine({
        urls: config.comfyui.urls,
        ...(config.comfyui.workflowsDir ? { workflowsDir: config.comfyui.workflowsDir } : {}),
      });
  }
}
