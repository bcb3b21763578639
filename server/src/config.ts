import os from 'node:os';
import path from 'node:path';
import type { MqttProtocolVersion } from '@tessera/contract';
import { z } from 'zod';
import { readFileVariables } from './config-files.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './broker/limits.js';
import { ENGINE_NAMES } from './engines/engine.js';
import { POOL_DEFAULTS } from './engines/comfyui/pool-member.js';
import type { ComfyUISettings } from './engines/comfyui/settings.js';
import type { S3Settings } from './files/s3-file-store.js';
import { DEFAULT_HTTP_DEADLINES, type HttpDeadlines } from './http/deadlines.js';
import { parseTrustedProxies } from './http/trusted-proxy.js';
import { DEFAULT_JOB_LEASE_MS } from './jobs/lease.js';
import { DEFAULT_STORE_RETRY } from './jobs/store-backoff.js';
import { DEFAULT_FILES_RETRY } from './files/s3-retry.js';
import { DEFAULT_POOL_SIZE, type DatabaseLocation } from './store/database.js';

/** 'https://tiles.example:8443' yes; with a path, query, fragment or login no. */
function isBareOrigin(value: string): boolean {
  const url = new URL(value);
  return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
}

/** Whether an address (already checked to be a URL) is https://, in whatever case it was typed. */
function isHttps(value: string | undefined): boolean {
  return value !== undefined && new URL(value).protocol === 'https:';
}

/** Thrown when the environment holds a value the server cannot start with. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const mqttUrl = z
  .url({
    protocol: /^(mqtts?|wss?)$/,
    error: 'must be a URL starting with mqtt://, mqtts://, ws:// or wss://',
  })
  .optional();

/** A whole number from `min` to `max`, with a message naming the range. */
const wholeNumber = (min: number, max: number, fallback: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .int({ error })
    .min(min, { error })
    .max(max, { error })
    .default(fallback);
};

/**
 * Live jobs one user may have: far above what the screens make (a batch posts its previews one
 * at a time; an HD order is one click each), low enough that one user cannot fill the queue.
 */
export const DEFAULT_MAX_QUEUED_PER_USER = { preview: 20, hd: 50 } as const;

/** The settings that mean something only with an object store. */
const S3_ONLY = [
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

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

const envSchema = z
  .object({
    PORT: z.coerce
      .number({ error: 'must be a whole number from 0 to 65535' })
      .int({ error: 'must be a whole number from 0 to 65535' })
      .min(0, { error: 'must be a whole number from 0 to 65535' })
      .max(65535, { error: 'must be a whole number from 0 to 65535' })
      .default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .url({
        protocol: /^postgres(ql)?$/,
        error: 'must be a URL starting with postgres:// or postgresql://',
      })
      .optional(),
    DATABASE_POOL_SIZE: wholeNumber(1, 1000, DEFAULT_POOL_SIZE),
    TITLE: z.string().min(1).max(200).default('Tessera'),
    THEME: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'must be a theme folder name (a-z, 0-9, -)' })
      .default('default'),
    MQTT_URL: mqttUrl,
    MQTT_USERNAME: z.string().min(1).optional(),
    MQTT_PASSWORD: z.string().min(1).optional(),
    PUBLIC_MQTT_URL: z
      .url({ protocol: /^wss?$/, error: 'must be a URL starting with ws:// or wss://' })
      .optional(),
    PUBLIC_MQTT_PROTOCOL_VERSION: z
      .enum(['4', '5'], { error: 'must be 4 (MQTT 3.1.1) or 5 (MQTT 5)' })
      .transform((value): MqttProtocolVersion => (value === '5' ? 5 : 4))
      .optional(),
    MQTT_USER_PROVISIONING: z
      .enum(['dynamic-security', 'none'], {
        error: "must be 'dynamic-security' (Mosquitto's plugin) or 'none' (you provision)",
      })
      .default('dynamic-security'),
    PUBLIC_HOSTS: z
      .string()
      .transform((value) => value.split(/[\s,]+/).filter(Boolean))
      .pipe(
        z
          .array(
            z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)$/, {
              error: 'must be host names or addresses, comma-separated, without ports',
            }),
          )
          .min(1),
      )
      .optional(),
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an address starting with http:// or https://' })
      .refine(isBareOrigin, {
        error: 'must be an origin only (https://host or https://host:port), without a path',
      })
      .optional(),
    TRUST_PROXY: z
      .string()
      .transform((value, ctx) => {
        try {
          return parseTrustedProxies(value);
        } catch (err) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be true, false, a number of proxies in front (1 to 100), or proxy addresses ' +
              `and ranges, comma-separated (127.0.0.1, 10.0.0.0/8, loopback): ${(err as Error).message}`,
          });
          return z.NEVER;
        }
      })
      .optional(),
    HTTP_HEADERS_TIMEOUT_MS: wholeNumber(1000, 600_000, DEFAULT_HTTP_DEADLINES.headersMs),
    HTTP_REQUEST_TIMEOUT_MS: wholeNumber(1000, 86_400_000, DEFAULT_HTTP_DEADLINES.requestMs),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: wholeNumber(1000, 600_000, DEFAULT_HTTP_DEADLINES.keepAliveMs),
    ENGINE: z
      .enum(ENGINE_NAMES, { error: `must be ${ENGINE_NAMES.join(' or ')}` })
      .default('builtin'),
    BUILTIN_UPSCALER: z
      .enum(['esrgan', 'esrgan-medium', 'lanczos'], {
        error: 'must be esrgan, esrgan-medium or lanczos',
      })
      .default('esrgan'),
    COMFYUI_URLS: z
      .string()
      .transform((value) => value.split(/[\s,]+/).filter(Boolean))
      .pipe(
        z.array(z.url({ protocol: /^https?$/, error: 'must be http:// or https:// URLs' })).min(1),
      )
      .optional(),
    COMFYUI_WORKFLOWS_DIR: z.string().min(1).optional(),
    COMFYUI_AUTH_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+:\s*\S.*$/, {
        error: "must be 'Header-Name: value'",
      })
      .optional(),
    COMFYUI_BEARER_TOKEN: z.string().min(1).optional(),
    COMFYUI_QUERY_TOKEN: z
      .string()
      .regex(/^[^=&\s]+=[^&\s]+$/, { error: "must be 'name=value'" })
      .optional(),
    COMFYUI_REQUEST_TIMEOUT_MS: wholeNumber(100, 600_000, 15_000),
    COMFYUI_SOCKET_TIMEOUT_MS: wholeNumber(100, 600_000, 15_000),
    COMFYUI_TRANSFER_IDLE_TIMEOUT_MS: wholeNumber(1000, 3_600_000, 60_000),
    COMFYUI_PROMPT_DEADLINE_MS: wholeNumber(0, 86_400_000, 30 * 60_000),
    COMFYUI_OUTAGE_WINDOW_MS: wholeNumber(0, 86_400_000, 5 * 60_000),
    COMFYUI_FAILING_AFTER: wholeNumber(1, 1000, 3),
    COMFYUI_FAILING_PAUSE_MS: wholeNumber(1000, 86_400_000, POOL_DEFAULTS.failingPauseMs),
    COMFYUI_PROBE_BACKOFF_MS: wholeNumber(100, 600_000, POOL_DEFAULTS.retryAfterMs),
    COMFYUI_PROBE_BACKOFF_MAX_MS: wholeNumber(100, 600_000, POOL_DEFAULTS.maxRetryAfterMs),
    JOB_CONCURRENCY: z.coerce
      .number({ error: 'must be a whole number from 1 to 16' })
      .int({ error: 'must be a whole number from 1 to 16' })
      .min(1, { error: 'must be a whole number from 1 to 16' })
      .max(16, { error: 'must be a whole number from 1 to 16' })
      .default(1),
    JOB_LEASE_MS: wholeNumber(1000, 3_600_000, DEFAULT_JOB_LEASE_MS),
    JOB_STORE_RETRY_MAX_MS: wholeNumber(100, 600_000, DEFAULT_STORE_RETRY.maxMs),
    FILES_RETRY_WINDOW_MS: wholeNumber(0, 3_600_000, DEFAULT_FILES_RETRY.windowMs),
    MQTT_PUBLISH_RATE: wholeNumber(1, 10_000, DEFAULT_BROKER_LIMITS.publishPerSecond),
    MQTT_PUBLISH_BURST: wholeNumber(1, 100_000, DEFAULT_BROKER_LIMITS.publishBurst),
    MQTT_MAX_CONNECTIONS_PER_USER: wholeNumber(1, 10_000, DEFAULT_BROKER_LIMITS.connectionsPerUser),
    MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS: wholeNumber(
      1,
      100_000,
      DEFAULT_BROKER_LIMITS.unauthenticatedPerAddress,
    ),
    MQTT_CONNECT_TIMEOUT_MS: wholeNumber(500, 120_000, DEFAULT_BROKER_LIMITS.connectTimeoutMs),
    MAX_QUEUED_PREVIEWS_PER_USER: wholeNumber(1, 10_000, DEFAULT_MAX_QUEUED_PER_USER.preview),
    MAX_QUEUED_HD_PER_USER: wholeNumber(1, 10_000, DEFAULT_MAX_QUEUED_PER_USER.hd),
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
    REDIS_URL: z
      .url({ protocol: /^rediss?$/, error: 'must be a URL starting with redis:// or rediss://' })
      .optional(),
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{16,}$/, {
        error:
          'must be at least 16 printable characters without spaces (e.g. the output of openssl rand -hex 32)',
      })
      .optional(),
    METRICS_PORT: z.coerce
      .number({ error: 'must be a whole number from 0 to 65535' })
      .int({ error: 'must be a whole number from 0 to 65535' })
      .min(0, { error: 'must be a whole number from 0 to 65535' })
      .max(65535, { error: 'must be a whole number from 0 to 65535' })
      .optional(),
    HEALTH_PORT: z.coerce
      .number({ error: 'must be a whole number from 0 to 65535' })
      .int({ error: 'must be a whole number from 0 to 65535' })
      .min(0, { error: 'must be a whole number from 0 to 65535' })
      .max(65535, { error: 'must be a whole number from 0 to 65535' })
      .optional(),
    SHUTDOWN_DRAIN_MS: wholeNumber(0, 600_000, 5000),
    SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000, 10_000),
    ADMIN_PASSWORD: z
      .string()
      .min(8, { error: 'must have at least 8 characters' })
      .max(1024, { error: 'must have at most 1024 characters' })
      .optional(),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, { error: 'must be 1 to 64 characters A-Z, 0-9, :_.-' })
      .default('tessera:'),
  })
  .superRefine((env, ctx) => {
    if (!env.FILES_URL) {
      for (const key of S3_ONLY) {
        if (env[key] === undefined) continue;
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is only used with FILES_URL=s3://bucket/prefix: set FILES_URL or unset it',
        });
      }
    }
    if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message:
          'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (unset both for the AWS SDK’s default credentials)',
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      // Node refuses a headers deadline beyond the whole request's.
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    if (env.HEALTH_PORT !== undefined && env.ROLE !== 'worker') {
      ctx.addIssue({
        code: 'custom',
        path: ['HEALTH_PORT'],
        message: `is for ROLE=worker, which has no HTTP port; a '${env.ROLE}' process answers /api/health and /api/ready on PORT`,
      });
    }
    const ports = [env.ROLE === 'worker' ? env.HEALTH_PORT : env.PORT].filter((p) => p);
    if (env.METRICS_PORT && ports.includes(env.METRICS_PORT)) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: `must differ from ${env.ROLE === 'worker' ? 'HEALTH_PORT' : 'PORT'}: /metrics there needs METRICS_TOKEN`,
      });
    }
    if (env.COMFYUI_PROBE_BACKOFF_MAX_MS < env.COMFYUI_PROBE_BACKOFF_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['COMFYUI_PROBE_BACKOFF_MAX_MS'],
        message: `must be at least COMFYUI_PROBE_BACKOFF_MS (${env.COMFYUI_PROBE_BACKOFF_MS}): the pause before a down ComfyUI server is asked again grows from that to this`,
      });
    }
    if (env.ENGINE === 'comfyui' && !env.COMFYUI_URLS) {
      ctx.addIssue({
        code: 'custom',
        path: ['COMFYUI_URLS'],
        message: 'is required with ENGINE=comfyui (one or more ComfyUI base URLs)',
      });
    }
    const browserBrokerUrl = env.PUBLIC_MQTT_URL ?? env.MQTT_URL;
    if (
      isHttps(env.PUBLIC_URL) &&
      browserBrokerUrl &&
      new URL(browserBrokerUrl).protocol !== 'wss:'
    ) {
      // An https page may not open a ws:// socket (mixed content): live updates would never come.
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_MQTT_URL'],
        message: env.PUBLIC_MQTT_URL
          ? 'must be a wss:// address when PUBLIC_URL is https:// (browsers block ws:// from an https page)'
          : 'is required (a wss:// address) when PUBLIC_URL is https:// and MQTT_URL is not wss://',
      });
    }
    if (!env.MQTT_URL) {
      if (env.ROLE !== 'server') {
        // The embedded broker lives in one process: a worker could not tell users anything,
        // and a web process would have no worker to run its jobs.
        ctx.addIssue({
          code: 'custom',
          path: ['ROLE'],
          message: `'${env.ROLE}' needs MQTT_URL: several processes share an external broker (Mosquitto); the embedded broker serves one process only`,
        });
      }
      if (env.PUBLIC_MQTT_PROTOCOL_VERSION === 5) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_MQTT_PROTOCOL_VERSION'],
          message: 'cannot be 5 without MQTT_URL: the embedded broker speaks MQTT 3.1.1 only',
        });
      }
      return;
    }
    if (!env.MQTT_USERNAME || !env.MQTT_PASSWORD) {
      ctx.addIssue({
        code: 'custom',
        path: ['MQTT_USERNAME'],
        message:
          'MQTT_USERNAME and MQTT_PASSWORD (the service principal) are required with MQTT_URL',
      });
    }
    if (!env.PUBLIC_MQTT_URL && !/^wss?:/.test(env.MQTT_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_MQTT_URL'],
        message: 'is required when MQTT_URL is not a ws:// or wss:// address browsers can reach',
      });
    }
  });

/**
 * The configuration as the server uses it, made from the environment variables above: `Config`
 * is this schema's output, so the two cannot drift apart.
 */
const configSchema = envSchema.transform((e) => ({
  port: e.PORT,
  host: e.HOST,
  dataDir: path.resolve(e.DATA_DIR),
  /** Unset: the SQLite file in dataDir. Set: that PostgreSQL database (docs/postgresql.md). */
  ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
  /** Connections the PostgreSQL pool keeps at most, per server process. */
  databasePoolSize: e.DATABASE_POOL_SIZE,
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
  sharedLimits: sharedLimitsStore(e),
  /** Names browsers reach the server by; unset: its loopback names, host name and addresses. */
  /** The first administrator's password on a first start; unset: generated and saved to a file. */
  ...(e.ADMIN_PASSWORD ? { adminPassword: e.ADMIN_PASSWORD } : {}),
  ...(e.PUBLIC_HOSTS ? { publicHosts: e.PUBLIC_HOSTS } : {}),
  /**
   * The origin browsers reach the server at, when a proxy in front may change Host; state changes
   * from pages of any other origin are refused (issue 22, part 1). Unset: the request's Host.
   */
  ...(e.PUBLIC_URL ? { publicOrigin: new URL(e.PUBLIC_URL).origin } : {}),
  /** PUBLIC_URL is https: the session cookie is Secure and answers carry HSTS. */
  ...(isHttps(e.PUBLIC_URL) ? { httpsOnly: true } : {}),
  /** Whose X-Forwarded-* headers to believe (TRUST_PROXY); unset: nobody's. */
  ...(e.TRUST_PROXY ? { trustedProxies: e.TRUST_PROXY } : {}),
  /**
   * The embedded broker's address as browsers reach it (PUBLIC_MQTT_URL), when something in
   * front serves it elsewhere; unset: PUBLIC_URL's host at /mqtt, or the request's Host.
   */
  ...(!e.MQTT_URL && e.PUBLIC_MQTT_URL ? { embeddedBrokerPublicUrl: e.PUBLIC_MQTT_URL } : {}),
  /** How long a client may take over a request's head, a whole request, and an idle keep-alive. */
  httpDeadlines: {
    headersMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  } satisfies HttpDeadlines,
  /** Which engine makes images (DESIGN §5). */
  engine: e.ENGINE,
  /** The builtin engine's HD pass: the ESRGAN network, or sharp's Lanczos alone (fast, for trials). */
  builtinUpscaler: e.BUILTIN_UPSCALER,
  /**
   * ENGINE=comfyui: the servers jobs are spread over, the operator's own workflow templates, how
   * Tessera proves itself to a proxy in front of them, and the timeouts (docs/comfyui.md).
   */
  ...(e.COMFYUI_URLS ? { comfyui: comfyUIConfig(e, e.COMFYUI_URLS) } : {}),
  /** Engine jobs running at once; one per CPU-heavy engine by default. */
  jobConcurrency: e.JOB_CONCURRENCY,
  /** How long a claimed job stays this process's without a renewal; its run renews it. */
  jobLeaseMs: e.JOB_LEASE_MS,
  /** The longest wait between a job runner's tries while the database is unreachable. */
  jobStoreRetryMaxMs: e.JOB_STORE_RETRY_MAX_MS,
  /** Live (queued or running) jobs one user may have, per kind. */
  maxQueuedPerUser: { preview: e.MAX_QUEUED_PREVIEWS_PER_USER, hd: e.MAX_QUEUED_HD_PER_USER },
  /** The embedded broker's per-connection, per-user and per-address limits. */
  brokerLimits: {
    publishPerSecond: e.MQTT_PUBLISH_RATE,
    publishBurst: e.MQTT_PUBLISH_BURST,
    connectionsPerUser: e.MQTT_MAX_CONNECTIONS_PER_USER,
    unauthenticatedPerAddress: e.MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS,
    connectTimeoutMs: e.MQTT_CONNECT_TIMEOUT_MS,
  } satisfies BrokerLimits,
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
  /** Unset: files in DATA_DIR/files. Set: objects in an S3 bucket (docs/scale-out.md). */
  ...(e.FILES_URL ? { s3: s3Settings(e, e.FILES_URL) } : {}),
  /** How long a job's object-store work keeps trying through an outage (FILES_URL only). */
  filesRetryWindowMs: e.FILES_RETRY_WINDOW_MS,
  /** Unset: the embedded broker. Set: an external broker and the service principal's login. */
  ...(e.MQTT_URL && e.MQTT_USERNAME && e.MQTT_PASSWORD
    ? {
        externalBroker: {
          url: e.MQTT_URL,
          username: e.MQTT_USERNAME,
          password: e.MQTT_PASSWORD,
          publicUrl: e.PUBLIC_MQTT_URL ?? e.MQTT_URL,
          /**
           * The MQTT version browsers speak to it: 5 (Mosquitto 2, the broker deploy/ ships,
           * speaks it) unless PUBLIC_MQTT_PROTOCOL_VERSION says 4.
           */
          publicProtocolVersion: e.PUBLIC_MQTT_PROTOCOL_VERSION ?? 5,
          /** How users' logins reach the broker: Mosquitto's dynamic-security plugin, or by hand. */
          userProvisioning: e.MQTT_USER_PROVISIONING,
        },
      }
    : {}),
}));

function sharedLimitsStore(e: z.output<typeof envSchema>) {
  if (e.REDIS_URL) {
    return { store: 'redis' as const, url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX };
  }
  return { store: e.MQTT_URL ? ('database' as const) : ('memory' as const) };
}

/** The server's configuration, as loadConfig reads it from the environment. */
export type Config = z.output<typeof configSchema>;
export type ComfyUIConfig = ComfyUISettings;

function comfyUIConfig(e: z.output<typeof envSchema>, urls: string[]) {
  return {
    urls,
    ...(e.COMFYUI_WORKFLOWS_DIR ? { workflowsDir: path.resolve(e.COMFYUI_WORKFLOWS_DIR) } : {}),
    auth: {
      ...(e.COMFYUI_AUTH_HEADER ? { header: headerParts(e.COMFYUI_AUTH_HEADER) } : {}),
      ...(e.COMFYUI_BEARER_TOKEN ? { bearerToken: e.COMFYUI_BEARER_TOKEN } : {}),
      ...(e.COMFYUI_QUERY_TOKEN
        ? {
            queryToken: {
              name: e.COMFYUI_QUERY_TOKEN.split('=')[0] ?? '',
              value: e.COMFYUI_QUERY_TOKEN.slice(e.COMFYUI_QUERY_TOKEN.indexOf('=') + 1),
            },
          }
        : {}),
    },
    requestTimeoutMs: e.COMFYUI_REQUEST_TIMEOUT_MS,
    socketTimeoutMs: e.COMFYUI_SOCKET_TIMEOUT_MS,
    transferIdleTimeoutMs: e.COMFYUI_TRANSFER_IDLE_TIMEOUT_MS,
    /** A prompt's execution deadline; 0: none. */
    promptDeadlineMs: e.COMFYUI_PROMPT_DEADLINE_MS,
    /** How long a job rides out its servers' outages before it fails; 0: fails at once. */
    outageWindowMs: e.COMFYUI_OUTAGE_WINDOW_MS,
    /** Prompts failing while running, one after the other, that take a server out. */
    failingAfter: e.COMFYUI_FAILING_AFTER,
    /** How long such a server gets no jobs before one on trial. */
    failingPauseMs: e.COMFYUI_FAILING_PAUSE_MS,
    /** A server not answering is asked again after this, doubling up to the max. */
    probeBackoffMs: e.COMFYUI_PROBE_BACKOFF_MS,
    probeBackoffMaxMs: e.COMFYUI_PROBE_BACKOFF_MAX_MS,
  } satisfies ComfyUISettings;
}

/** FILES_URL=s3://bucket/prefix and the S3_* settings → where the objects are. */
function s3Settings(e: z.output<typeof envSchema>, filesUrl: string) {
  const [bucket = '', ...prefix] = filesUrl.slice('s3://'.length).split('/').filter(Boolean);
  return {
    bucket,
    prefix: prefix.join('/'),
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    region: e.S3_REGION,
    ...(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? {
          credentials: { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY },
        }
      : {}),
    /** Most S3-compatible servers want `<endpoint>/<bucket>/<key>`; AWS also takes the bucket in the host. */
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
  } satisfies S3Settings;
}

/** "Name: value" → its parts (the schema has checked the form). */
function headerParts(text: string): { name: string; value: string } {
  const at = text.indexOf(':');
  return { name: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}

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

/** Where the configured database is, as openDatabase takes it. */
export function databaseLocation(config: Config): DatabaseLocation {
  return {
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { url: config.databaseUrl } : {}),
    poolSize: config.databasePoolSize,
  };
}
