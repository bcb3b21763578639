/**
 * The ComfyUI engine's settings (COMFYUI_*): their variables, checks and defaults, which
 * config.ts composes with the other parts'. The engine takes these, not the server's whole
 * configuration (engines/index.ts maps them to its options).
 */
import path from 'node:path';
import { z } from 'zod';
import { wholeNumber, type EnvProblem } from '../../runtime/env-schema.js';
import type { ComfyAuth } from './client.js';
import { POOL_DEFAULTS } from './pool-member.js';

export interface ComfyUISettings {
  /** COMFYUI_URLS: the servers jobs are spread over. */
  urls: string[];
  /** COMFYUI_WORKFLOWS_DIR: the operator's own templates; unset: the shipped ones. */
  workflowsDir?: string;
  /** How Tessera proves itself to a proxy in front of ComfyUI. */
  auth: ComfyAuth;
  requestTimeoutMs: number;
  socketTimeoutMs: number;
  transferIdleTimeoutMs: number;
  /** A prompt's execution deadline; 0: none. */
  promptDeadlineMs: number;
  /** How long a job rides out its servers' outages before it fails; 0: fails at once. */
  outageWindowMs: number;
  /** Prompts failing while running, one after the other, that make a server `failing`. */
  failingAfter: number;
  /** How long a `failing` server gets no jobs before it is given one on trial. */
  failingPauseMs: number;
  /** The first pause before a server that stopped answering is asked again (it then doubles). */
  probeBackoffMs: number;
  /** The longest such pause. */
  probeBackoffMaxMs: number;
}

const comfyUIEnvSchema = z.object({
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
});

/** The ComfyUI engine's environment variables, as config.ts reads them. */
export const comfyUIEnv = comfyUIEnvSchema.shape;
type ComfyUIEnv = z.output<typeof comfyUIEnvSchema>;

/** What the variables' own schemas cannot see: a backoff that grows up to its maximum. */
export function checkComfyUIEnv(env: ComfyUIEnv, problem: EnvProblem): void {
  if (env.COMFYUI_PROBE_BACKOFF_MAX_MS < env.COMFYUI_PROBE_BACKOFF_MS) {
    problem(
      'COMFYUI_PROBE_BACKOFF_MAX_MS',
      `must be at least COMFYUI_PROBE_BACKOFF_MS (${env.COMFYUI_PROBE_BACKOFF_MS}): the pause before a down ComfyUI server is asked again grows from that to this`,
    );
  }
}

/**
 * ENGINE=comfyui: the servers jobs are spread over, the operator's own workflow templates, how
 * Tessera proves itself to a proxy in front of them, and the timeouts (docs/comfyui.md).
 */
export function comfyUISettings(env: ComfyUIEnv, urls: string[]): ComfyUISettings {
  return {
    urls,
    ...(env.COMFYUI_WORKFLOWS_DIR ? { workflowsDir: path.resolve(env.COMFYUI_WORKFLOWS_DIR) } : {}),
    auth: {
      ...(env.COMFYUI_AUTH_HEADER ? { header: headerParts(env.COMFYUI_AUTH_HEADER) } : {}),
      ...(env.COMFYUI_BEARER_TOKEN ? { bearerToken: env.COMFYUI_BEARER_TOKEN } : {}),
      ...(env.COMFYUI_QUERY_TOKEN
        ? {
            queryToken: {
              name: env.COMFYUI_QUERY_TOKEN.split('=')[0] ?? '',
              value: env.COMFYUI_QUERY_TOKEN.slice(env.COMFYUI_QUERY_TOKEN.indexOf('=') + 1),
            },
          }
        : {}),
    },
    requestTimeoutMs: env.COMFYUI_REQUEST_TIMEOUT_MS,
    socketTimeoutMs: env.COMFYUI_SOCKET_TIMEOUT_MS,
    transferIdleTimeoutMs: env.COMFYUI_TRANSFER_IDLE_TIMEOUT_MS,
    promptDeadlineMs: env.COMFYUI_PROMPT_DEADLINE_MS,
    outageWindowMs: env.COMFYUI_OUTAGE_WINDOW_MS,
    failingAfter: env.COMFYUI_FAILING_AFTER,
    failingPauseMs: env.COMFYUI_FAILING_PAUSE_MS,
    probeBackoffMs: env.COMFYUI_PROBE_BACKOFF_MS,
    probeBackoffMaxMs: env.COMFYUI_PROBE_BACKOFF_MAX_MS,
  };
}

/** "Name: value" → its parts (the schema has checked the form). */
function headerParts(text: string): { name: string; value: string } {
  const at = text.indexOf(':');
  return { name: text.slice(0, at).trim(), value: text.slice(at + 1).trim() };
}
