/**
 * The print files' settings (PRINT_*): their variables and checks, which config.ts composes with
 * the other parts', and what the profiles folder takes from them (issue 26, part 1).
 */
import path from 'node:path';
import { z } from 'zod';

const printEnvSchema = z.object({
  /** The operator's ICC output profiles (`.icc`/`.icm`); unset: DATA_DIR/profiles. */
  PRINT_PROFILES_DIR: z.string().min(1).optional(),
});

/** The print files' environment variables, as config.ts reads them. */
export const printEnv = printEnvSchema.shape;
type PrintEnv = z.output<typeof printEnvSchema>;

export interface PrintSettings {
  /** Where the operator installs ICC output profiles; read at every listing. */
  printProfilesDir: string;
}

export function printSettings(env: PrintEnv, dataDir: string): PrintSettings {
  return {
    printProfilesDir: path.resolve(env.PRINT_PROFILES_DIR ?? path.join(dataDir, 'profiles')),
  };
}
