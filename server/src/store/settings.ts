/**
 * The database's settings (DATABASE_*): their variables, checks and defaults, which config.ts
 * composes with the other adapters', and what openDatabase takes from them.
 */
import { z } from 'zod';
import { wholeNumber } from '../runtime/env-schema.js';
import { DEFAULT_POOL_SIZE, type DatabaseLocation } from './database.js';

const databaseEnvSchema = z.object({
  DATABASE_URL: z
    .url({
      protocol: /^postgres(ql)?$/,
      error: 'must be a URL starting with postgres:// or postgresql://',
    })
    .optional(),
  DATABASE_POOL_SIZE: wholeNumber(1, 1000, DEFAULT_POOL_SIZE),
});

/** The database's environment variables, as config.ts reads them. */
export const databaseEnv = databaseEnvSchema.shape;
type DatabaseEnv = z.output<typeof databaseEnvSchema>;

export interface DatabaseSettings {
  /** Unset: the SQLite file in dataDir. Set: that PostgreSQL database (docs/postgresql.md). */
  databaseUrl?: string;
  /** Connections the PostgreSQL pool keeps at most, per server process. */
  databasePoolSize: number;
}

export function databaseSettings(env: DatabaseEnv): DatabaseSettings {
  return {
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    databasePoolSize: env.DATABASE_POOL_SIZE,
  };
}

/** Where the configured database is, as openDatabase takes it. */
export function databaseLocation(
  settings: DatabaseSettings & { dataDir: string },
): DatabaseLocation {
  return {
    dataDir: settings.dataDir,
    ...(settings.databaseUrl ? { url: settings.databaseUrl } : {}),
    poolSize: settings.databasePoolSize,
  };
}
