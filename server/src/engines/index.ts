import type { Config } from '../config.js';
import { BuiltinEngine } from './builtin/builtin-engine.js';
import type { Engine } from './engine.js';

/** The engine the configuration names (ENGINE). */
export function createEngine(config: Pick<Config, 'engine'>): Engine {
  switch (config.engine) {
    case 'builtin':
      return new BuiltinEngine();
  }
}
