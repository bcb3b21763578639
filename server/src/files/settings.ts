/**
 * The file store's settings (FILES_*, S3_*): their variables, checks and defaults, which config.ts
 * composes with the other adapters', and what createFileStore takes from them.
 */
import { z } from 'zod';
import { wholeNumber, type EnvProblem } from '../runtime/env-schema.js';
import type { S3Settings } from './s3-file-store.js';
import { DEFAULT_FILES_RETRY } from './s3-retry.js';

const filesEnvSchema = z.object({
  FILES_RETRY_WINDOW_MS: wholeNumber(0, 3_600_000, DEFAULT_FILES_RETRY.windowMs),
  FILES_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()-]+)*\/?$/, {
      error:
        'must be s3://bucket or s3://bucket/prefix (a bucket name of 3 to 63 lowercase letters, ' +
        'digits, dots and hyphens; a prefix of plain key segments)',
    })
    .optional(),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be a URL starting with http:// or https://' })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, { error: 'must be a region name such as us-east-1' })
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});

/** The file store's environment variables, as config.ts reads them. */
export const filesEnv = filesEnvSchema.shape;
type FilesEnv = z.output<typeof filesEnvSchema>;

/** The settings that mean something only with an object store. */
const S3_ONLY = [
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

/** What the variables' own schemas cannot see: the ones that go together. */
export function checkFilesEnv(env: FilesEnv, problem: EnvProblem): void {
  if (!env.FILES_URL) {
    for (const key of S3_ONLY) {
      if (env[key] === undefined) continue;
      problem(key, 'is only used with FILES_URL=s3://bucket/prefix: set FILES_URL or unset it');
    }
  }
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    problem(
      env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (unset both for the AWS SDK’s default credentials)',
    );
  }
}

/** Where the files are, as createFileStore takes it (the data folder is the server's). */
export interface FileStoreSettings {
  dataDir: string;
  /** Unset: files in DATA_DIR/files. Set: objects in an S3 bucket (docs/scale-out.md). */
  s3?: S3Settings;
  /** How long a job's object-store work keeps trying through an outage (FILES_URL only). */
  filesRetryWindowMs?: number;
}

export function fileStoreSettings(env: FilesEnv): { s3?: S3Settings; filesRetryWindowMs: number } {
  return {
    ...(env.FILES_URL ? { s3: s3Settings(env, env.FILES_URL) } : {}),
    filesRetryWindowMs: env.FILES_RETRY_WINDOW_MS,
  };
}

/** FILES_URL=s3://bucket/prefix and the S3_* settings → where the objects are. */
function s3Settings(env: FilesEnv, filesUrl: string): S3Settings {
  const [bucket = '', ...prefix] = filesUrl.slice('s3://'.length).split('/').filter(Boolean);
  return {
    bucket,
    prefix: prefix.join('/'),
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    region: env.S3_REGION,
    ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          },
        }
      : {}),
    /** Most S3-compatible servers want `<endpoint>/<bucket>/<key>`; AWS also takes the bucket in the host. */
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
  };
}
