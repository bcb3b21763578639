/**
 * Helpers the settings schemas share (config.ts composes them from files beside each adapter:
 * files/settings.ts, store/settings.ts, ...), so that every variable's checks read alike.
 */
import { z } from 'zod';

/** A whole number from `min` to `max`, with a message naming the range. */
export const wholeNumber = (min: number, max: number, fallback: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .int({ error })
    .min(min, { error })
    .max(max, { error })
    .default(fallback);
};

/** A TCP port: a whole number from 0 to 65535, without a default. */
export const portNumber = () => {
  const error = 'must be a whole number from 0 to 65535';
  return z.coerce.number({ error }).int({ error }).min(0, { error }).max(65535, { error });
};

/**
 * Reports a problem that involves several variables, against the one named (config.ts turns it
 * into the schema's issue): the checks beside each adapter take this, not zod's context.
 */
export type EnvProblem = (variable: string, message: string) => void;
