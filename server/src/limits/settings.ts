/**
 * Where login throttling and the per-user command rate are counted (REDIS_*): the variables,
 * which config.ts composes with the other parts', and the store they choose.
 */
import { z } from 'zod';

const limitsEnvSchema = z.object({
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a URL starting with redis:// or rediss://' })
    .optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, { error: 'must be 1 to 64 characters A-Z, 0-9, :_.-' })
    .default('tessera:'),
});

/** The limits' environment variables, as config.ts reads them. */
export const limitsEnv = limitsEnvSchema.shape;
type LimitsEnv = z.output<typeof limitsEnvSchema>;

/**
 * Redis when REDIS_URL is set; else the database when several processes may run (an external
 * broker); else this process's memory (the embedded broker is one process).
 */
export type SharedLimitsSettings =
  { store: 'redis'; url: string; keyPrefix: string } | { store: 'database' | 'memory' };

export function sharedLimitsSettings(
  env: LimitsEnv,
  severalProcesses: boolean,
): SharedLimitsSettings {
  if (env.REDIS_URL) {
    return { store: 'redis', url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX };
  }
  return { store: severalProcesses ? 'database' : 'memory' };
}
