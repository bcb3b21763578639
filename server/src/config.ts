import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BYTES_PER_GB, STORAGE_QUOTA_MAX_BYTES } from '@tessera/contract';
import { readFileVariables } from './config-files.js';
import { brokerEnv, brokerSettings, checkBrokerEnv } from './broker/settings.js';
import { checkEnginesEnv, engineSettings, enginesEnv } from './engines/settings.js';
import { checkFilesEnv, fileStoreSettings, filesEnv } from './files/settings.js';
import { checkHttpEnv, httpEnv, httpSettings, isHttps } from './http/settings.js';
import { checkSsoEnv, ssoEnv, ssoSettings } from './http/sso/settings.js';
import { DEFAULT_JOB_LEASE_MS } from './jobs/lease.js';
import { DEFAULT_STORE_RETRY } from './jobs/store-backoff.js';
import { printEnv, printSettings } from './imaging/print/settings.js';
import { limitsEnv, sharedLimitsSettings } from './limits/settings.js';
import { portNumber, wholeNumber, type EnvProblem } from './runtime/env-schema.js';
import { databaseEnv, databaseSettings } from './store/settings.js';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './services/audit.js';
import { DEFAULT_WEBHOOK_DELIVERY_RETENTION_DAYS } from './services/webhook-pruning.js';

export { databaseLocation } from './store/settings.js';

/** Thrown when the environment holds a value the server cannot start with. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Live jobs one user may have: far above what the screens make (a batch posts its previews one
 * at a time; an HD order is one click each), low enough that one user cannot fill the queue.
 */
export const DEFAULT_MAX_QUEUED_PER_USER = { preview: 20, hd: 50 } as const;

/**
 * What one process does (docs/scale-out.md): `server` everything (HTTP, commands, jobs), `web`
 * HTTP and commands without jobs, `worker` jobs only (no HTTP, no commands).
 */
export const ROLES = ['server', 'web', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** hostname-role, in the characters an instance name may hold. */
export function defaultInstanceName(role: Role, hostname = os.hostname()): string {
  const host = hostname
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${(host || 'host').slice(0, 48)}-${role}`;
}

/**
 * Every variable the server reads: the process's own here, each part's beside it (http/, store/,
 * broker/, engines/, files/, limits/ settings.ts).
 */
const envSchema = z
  .object({
    ...httpEnv,
    DATA_DIR: z.string().min(1).default('./data'),
    ...databaseEnv,
    TITLE: z.string().min(1).max(200).default('Tessera'),
    THEME: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'must be a theme folder name (a-z, 0-9, -)' })
      .default('default'),
    ...brokerEnv,
    ...enginesEnv,
    JOB_CONCURRENCY: wholeNumber(1, 16, 1),
    JOB_LEASE_MS: wholeNumber(1000, 3_600_000, DEFAULT_JOB_LEASE_MS),
    JOB_STORE_RETRY_MAX_MS: wholeNumber(100, 600_000, DEFAULT_STORE_RETRY.maxMs),
    MAX_QUEUED_PREVIEWS_PER_USER: wholeNumber(1, 10_000, DEFAULT_MAX_QUEUED_PER_USER.preview),
    MAX_QUEUED_HD_PER_USER: wholeNumber(1, 10_000, DEFAULT_MAX_QUEUED_PER_USER.hd),
    HD_RETENTION_DAYS: wholeNumber(0, 36_500, 0),
    // Decimal GB, fractions allowed (0.5); unset: no storage limit until an admin sets one.
    STORAGE_QUOTA_GB: z.coerce
      .number({ error: 'must be a number of GB, e.g. 5 or 0.5' })
      .positive({ error: 'must be more than 0 GB' })
      .max(STORAGE_QUOTA_MAX_BYTES / BYTES_PER_GB)
      .optional(),
    ...filesEnv,
    ...printEnv,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    ROLE: z.enum(ROLES, { error: `must be ${ROLES.join(', ')}` }).default('server'),
    INSTANCE_NAME: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
        error: 'must be 1 to 64 characters a-z, 0-9 and -, starting with a letter or digit',
      })
      .optional(),
    ...limitsEnv,
    ...ssoEnv,
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{16,}$/, {
        error:
          'must be at least 16 printable characters without spaces (e.g. the output of openssl rand -hex 32)',
      })
      .optional(),
    METRICS_PORT: portNumber().optional(),
    HEALTH_PORT: portNumber().optional(),
    SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000, 5000),
    SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000, 10_000),
    AUDIT_RETENTION_DAYS: wholeNumber(1, 36_500, DEFAULT_AUDIT_RETENTION_DAYS),
    WEBHOOK_DELIVERY_RETENTION_DAYS: wholeNumber(
      1,
      36_500,
      DEFAULT_WEBHOOK_DELIVERY_RETENTION_DAYS,
    ),
    ADMIN_PASSWORD: z
      .string()
      .min(8, { error: 'must have at least 8 characters' })
      .max(1024, { error: 'must have at most 1024 characters' })
      .optional(),
  })
  .superRefine((env, ctx) => {
    const problem: EnvProblem = (variable, message) =>
      ctx.addIssue({ code: 'custom', path: [variable], message });
    checkFilesEnv(env, problem);
    checkHttpEnv(env, problem);
    checkProcessPorts(env, problem);
    checkEnginesEnv(env, problem);
    const browserBrokerUrl = env.PUBLIC_MQTT_URL ?? env.MQTT_URL;
    if (
      isHttps(env.PUBLIC_URL) &&
      browserBrokerUrl &&
      new URL(browserBrokerUrl).protocol !== 'wss:'
    ) {
      // An https page may not open a ws:// socket (mixed content): live updates would never come.
      problem(
        'PUBLIC_MQTT_URL',
        env.PUBLIC_MQTT_URL
          ? 'must be a wss:// address when PUBLIC_URL is https:// (browsers block ws:// from an https page)'
          : 'is required (a wss:// address) when PUBLIC_URL is https:// and MQTT_URL is not wss://',
      );
    }
    if (!env.MQTT_URL && env.ROLE !== 'server') {
      // The embedded broker lives in one process: a worker could not tell users anything,
      // and a web process would have no worker to run its jobs.
      problem(
        'ROLE',
        `'${env.ROLE}' needs MQTT_URL: several processes share an external broker (Mosquitto); the embedded broker serves one process only`,
      );
    }
    checkBrokerEnv(env, problem);
    checkSsoEnv(env, problem);
  });

type Env = z.output<typeof envSchema>;

/** A worker's health port stands for the HTTP port it does not have; /metrics needs its own. */
function checkProcessPorts(env: Env, problem: EnvProblem): void {
  if (env.HEALTH_PORT !== undefined && env.ROLE !== 'worker') {
    problem(
      'HEALTH_PORT',
      `is for ROLE=worker, which has no HTTP port; a '${env.ROLE}' process answers /api/health and /api/ready on PORT`,
    );
  }
  const ports = [env.ROLE === 'worker' ? env.HEALTH_PORT : env.PORT].filter((p) => p);
  if (env.METRICS_PORT && ports.includes(env.METRICS_PORT)) {
    problem(
      'METRICS_PORT',
      `must differ from ${env.ROLE === 'worker' ? 'HEALTH_PORT' : 'PORT'}: /metrics there needs METRICS_TOKEN`,
    );
  }
}

/**
 * The configuration as the server uses it, made from the environment variables above: `Config`
 * is this schema's output, so the two cannot drift apart. It stays flat: each part's settings
 * (httpSettings, databaseSettings, ...) are spread into it, and each factory takes its own
 * settings type, which `Config` satisfies as it is.
 */
const configSchema = envSchema.transform((e) => ({
  ...httpSettings(e),
  dataDir: path.resolve(e.DATA_DIR),
  ...databaseSettings(e),
  title: e.TITLE,
  theme: e.THEME,
  logLevel: e.LOG_LEVEL,
  /** What this process does: everything, HTTP and commands, or jobs only (docs/scale-out.md). */
  role: e.ROLE,
  /** This process's name among several: in its scratch folder and its ComfyUI upload names. */
  instanceName: e.INSTANCE_NAME ?? defaultInstanceName(e.ROLE),
  /**
   * Where login throttling and the per-user command rate are counted: Redis when set; else the
   * database with an external broker (several processes may run); else this process's memory.
   */
  sharedLimits: sharedLimitsSettings(e, !!e.MQTT_URL),
  /** The first administrator's password on a first start; unset: generated and saved to a file. */
  ...(e.ADMIN_PASSWORD ? { adminPassword: e.ADMIN_PASSWORD } : {}),
  ...brokerSettings(e),
  ...engineSettings(e),
  /** Engine jobs running at once; one per CPU-heavy engine by default. */
  jobConcurrency: e.JOB_CONCURRENCY,
  /** How long a claimed job stays this process's without a renewal; its run renews it. */
  jobLeaseMs: e.JOB_LEASE_MS,
  /** The longest wait between a job runner's tries while the database is unreachable. */
  jobStoreRetryMaxMs: e.JOB_STORE_RETRY_MAX_MS,
  /** Live (queued or running) jobs one user may have, per kind. */
  maxQueuedPerUser: { preview: e.MAX_QUEUED_PREVIEWS_PER_USER, hd: e.MAX_QUEUED_HD_PER_USER },
  /** The default storage quota per user in bytes (an admin may change it); unset: no limit. */
  ...(e.STORAGE_QUOTA_GB !== undefined
    ? { storageQuotaBytes: Math.round(e.STORAGE_QUOTA_GB * BYTES_PER_GB) }
    : {}),
  /** HD files older than this many days are removed daily (docs/admin.md); 0: kept for ever. */
  hdRetentionDays: e.HD_RETENTION_DAYS,
  /** GET /metrics on PORT (or a worker's HEALTH_PORT) with `Authorization: Bearer` this. */
  ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
  /** A listener of its own for /metrics without a token (a private network). */
  ...(e.METRICS_PORT !== undefined ? { metricsPort: e.METRICS_PORT } : {}),
  /** ROLE=worker: a port answering /api/health and /api/ready (it has no other HTTP). */
  ...(e.HEALTH_PORT !== undefined ? { healthPort: e.HEALTH_PORT } : {}),
  /**
   * On SIGTERM the process says it is not ready and keeps serving this long, so a load balancer
   * stops sending it work, before it stops.
   */
  shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
  /**
   * Then the requests in flight (a download) get this long to finish before their connections
   * are closed: a client that stopped reading cannot hold the stop.
   */
  shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  /** How long the audit trail keeps an entry (issue 29, part 5); pruned at start and daily. */
  auditRetentionDays: e.AUDIT_RETENTION_DAYS,
  /**
   * How long settled webhook deliveries are kept (issue 30, part 3); each endpoint's latest 50
   * stay whatever their age. Pruned at start and hourly by the processes that run jobs.
   */
  webhookDeliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
  /** Single sign-on with an OpenID Connect provider (issue 30, part 4); unset: off. */
  ...ssoSettings(e),
  ...fileStoreSettings(e),
  /** Where the operator's ICC output profiles for print files are (issue 26). */
  ...printSettings(e, path.resolve(e.DATA_DIR)),
}));

/** The server's configuration, as loadConfig reads it from the environment. */
export type Config = z.output<typeof configSchema>;

/** Values an error message names but never echoes: they may hold a password. */
const SECRETS = new Set([
  'DATABASE_URL',
  'METRICS_TOKEN',
  'ADMIN_PASSWORD',
  'MQTT_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
  'COMFYUI_AUTH_HEADER',
  'COMFYUI_BEARER_TOKEN',
  'COMFYUI_QUERY_TOKEN',
  'OIDC_CLIENT_SECRET',
]);

/**
 * Reads the configuration from environment variables; every variable has a default that works,
 * and each may be given as X_FILE, a file holding its value (config-files.ts).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const set = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]),
  );
  const files = readFileVariables(set, new Set(Object.keys(envSchema.shape)));
  if (files.problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${files.problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
  const present = files.env;
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      const named = files.fromFiles.has(key) ? `${key}_FILE` : key;
      const secret = SECRETS.has(key) || files.fromFiles.has(key);
      const value = key in present && !secret ? ` (got '${present[key]}')` : '';
      return `  ${named === key ? key : `${key} (from ${named})`} ${issue.message}${value}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
