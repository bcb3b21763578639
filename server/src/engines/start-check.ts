import type { Logger } from 'pino';
import type { Engine } from './engine.js';

/**
 * Starts the engine and warns of each ComfyUI server that cannot take jobs. Not to be awaited:
 * a server that is down or slow to list its nodes must not hold up the start.
 */
export function startEngineInBackground(engine: Engine, log: Logger): void {
  void engine
    .start?.()
    .then((health) => {
      for (const server of health.servers ?? []) {
        if (server.state === 'up') continue;
        log.warn(
          {
            server: server.url,
            state: server.state,
            missing: server.missing,
            err: server.lastError,
          },
          server.state === 'incomplete'
            ? 'ComfyUI server lacks what the templates need: it gets no jobs'
            : 'ComfyUI server not answering',
        );
      }
    })
    .catch((err: unknown) => log.error({ err }, 'checking the engine failed'));
}
