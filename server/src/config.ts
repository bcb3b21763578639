import path from 'node:path';
import type { MqttProtocolVersion } from '@tessera/contract';
import { z } from 'zod';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './broker/limits.js';

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
      .transform((value) => (value === '5' ? 5 : 4))
      .optional(),
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
    ENGINE: z
      .enum(['builtin', 'comfyui'], { error: 'must be builtin or comfyui' })
      .default('builtin'),
    BUILTIN_UPSCALER: z
      .enum(['esrgan', 'lanczos'], { error: 'must be esrgan or lanczos' })
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
    JOB_CONCURRENCY: z.coerce
      .number({ error: 'must be a whole number from 1 to 16' })
      .int({ error: 'must be a whole number from 1 to 16' })
      .min(1, { error: 'must be a whole number from 1 to 16' })
      .max(16, { error: 'must be a whole number from 1 to 16' })
      .default(1),
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
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.ENGINE === 'comfyui' && !env.COMFYUI_URLS) {
      ctx.addIssue({
        code: 'custom',
        path: ['COMFYUI_URLS'],
        message: 'is required with ENGINE=comfyui (one or more ComfyUI base URLs)',
      });
    }
    if (!env.MQTT_URL) {
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

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  title: string;
  theme: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Names browsers reach the server by; unset: its loopback names, host name and addresses. */
  publicHosts?: string[];
  /** Which engine makes images (DESIGN §5). */
  engine: 'builtin' | 'comfyui';
  /** The builtin engine's HD pass: the ESRGAN network, or sharp's Lanczos alone (fast, for trials). */
  builtinUpscaler: 'esrgan' | 'lanczos';
  /**
   * ENGINE=comfyui: the servers jobs are spread over, the operator's own workflow templates, how
   * Tessera proves itself to a proxy in front of them, and the timeouts (docs/comfyui.md).
   */
  comfyui?: ComfyUIConfig;
  /** Engine jobs running at once; one per CPU-heavy engine by default. */
  jobConcurrency: number;
  /** Unset: the embedded broker. Set: an external broker and the service principal's login. */
  externalBroker?: {
    url: string;
    username: string;
    password: string;
    publicUrl: string;
    /** The MQTT version browsers speak to it: 5 unless PUBLIC_MQTT_PROTOCOL_VERSION says 4. */
    publicProtocolVersion: MqttProtocolVersion;
  };
  /** Live (queued or running) jobs one user may have, per kind. */
  maxQueuedPerUser: { preview: number; hd: number };
  /** The embedded broker's per-connection, per-user and per-address limits (unset: defaults). */
  brokerLimits?: BrokerLimits;
}

export interface ComfyUIConfig {
  urls: string[];
  workflowsDir?: string;
  auth: {
    header?: { name: string; value: string };
    bearerToken?: string;
    queryToken?: { name: string; value: string };
  };
  requestTimeoutMs: number;
  socketTimeoutMs: number;
  transferIdleTimeoutMs: number;
  /** A prompt's execution deadline; 0: none. */
  promptDeadlineMs: number;
}

/** "Name: value" → its parts (the schema has checked the form). */
function headerParts(text: string): { name: string; value: string } {
  const at = text.indexOf(':');
  return { name: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}

/** Reads the configuration from environment variables; every variable has a default that works. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      const value = key in present ? ` (got '${present[key]}')` : '';
      return `  ${key} ${issue.message}${value}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    title: e.TITLE,
    theme: e.THEME,
    logLevel: e.LOG_LEVEL,
    ...(e.PUBLIC_HOSTS ? { publicHosts: e.PUBLIC_HOSTS } : {}),
    engine: e.ENGINE,
    builtinUpscaler: e.BUILTIN_UPSCALER,
    ...(e.COMFYUI_URLS
      ? {
          comfyui: {
            urls: e.COMFYUI_URLS,
            ...(e.COMFYUI_WORKFLOWS_DIR
              ? { workflowsDir: path.resolve(e.COMFYUI_WORKFLOWS_DIR) }
              : {}),
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
            promptDeadlineMs: e.COMFYUI_PROMPT_DEADLINE_MS,
          },
        }
      : {}),
    jobConcurrency: e.JOB_CONCURRENCY,
    maxQueuedPerUser: { preview: e.MAX_QUEUED_PREVIEWS_PER_USER, hd: e.MAX_QUEUED_HD_PER_USER },
    brokerLimits: {
      publishPerSecond: e.MQTT_PUBLISH_RATE,
      publishBurst: e.MQTT_PUBLISH_BURST,
      connectionsPerUser: e.MQTT_MAX_CONNECTIONS_PER_USER,
      unauthenticatedPerAddress: e.MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS,
      connectTimeoutMs: e.MQTT_CONNECT_TIMEOUT_MS,
    },
    ...(e.MQTT_URL && e.MQTT_USERNAME && e.MQTT_PASSWORD
      ? {
          externalBroker: {
            url: e.MQTT_URL,
            username: e.MQTT_USERNAME,
            password: e.MQTT_PASSWORD,
            publicUrl: e.PUBLIC_MQTT_URL ?? e.MQTT_URL,
            // Mosquitto 2, the broker deploy/ ships, speaks MQTT 5.
            publicProtocolVersion: e.PUBLIC_MQTT_PROTOCOL_VERSION ?? 5,
          },
        }
      : {}),
  };
}
