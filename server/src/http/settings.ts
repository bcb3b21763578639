/**
 * The HTTP server's settings (PORT, HOST, PUBLIC_*, TRUST_PROXY, HTTP_*): their variables,
 * checks and defaults, which config.ts composes with the other parts'.
 */
import { z } from 'zod';
import { portNumber, wholeNumber, type EnvProblem } from '../runtime/env-schema.js';
import { DEFAULT_HTTP_DEADLINES, type HttpDeadlines } from './deadlines.js';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxy.js';

/** 'https://tiles.example:8443' yes; with a path, query, fragment or login no. */
function isBareOrigin(value: string): boolean {
  const url = new URL(value);
  return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
}

/** Whether an address (already checked to be a URL) is https://, in whatever case it was typed. */
export function isHttps(value: string | undefined): boolean {
  return value !== undefined && new URL(value).protocol === 'https:';
}

const httpEnvSchema = z.object({
  PORT: portNumber().default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
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
});

/** The HTTP server's environment variables, as config.ts reads them. */
export const httpEnv = httpEnvSchema.shape;
type HttpEnv = z.output<typeof httpEnvSchema>;

/** What the variables' own schemas cannot see: deadlines that must nest. */
export function checkHttpEnv(env: HttpEnv, problem: EnvProblem): void {
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses a headers deadline beyond the whole request's.
    problem('HTTP_HEADERS_TIMEOUT_MS', 'must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  }
}

export interface HttpSettings {
  port: number;
  host: string;
  /** Names browsers reach the server by; unset: its loopback names, host name and addresses. */
  publicHosts?: string[];
  /**
   * The origin browsers reach the server at, when a proxy in front may change Host; state changes
   * from pages of any other origin are refused (issue 22, part 1). Unset: the request's Host.
   */
  publicOrigin?: string;
  /** PUBLIC_URL is https: the session cookie is Secure and answers carry HSTS. */
  httpsOnly?: boolean;
  /** Whose X-Forwarded-* headers to believe (TRUST_PROXY); unset: nobody's. */
  trustedProxies?: TrustedProxies;
  /** How long a client may take over a request's head, a whole request, and an idle keep-alive. */
  httpDeadlines: HttpDeadlines;
}

export function httpSettings(env: HttpEnv): HttpSettings {
  return {
    port: env.PORT,
    host: env.HOST,
    ...(env.PUBLIC_HOSTS ? { publicHosts: env.PUBLIC_HOSTS } : {}),
    ...(env.PUBLIC_URL ? { publicOrigin: new URL(env.PUBLIC_URL).origin } : {}),
    ...(isHttps(env.PUBLIC_URL) ? { httpsOnly: true } : {}),
    ...(env.TRUST_PROXY ? { trustedProxies: env.TRUST_PROXY } : {}),
    httpDeadlines: {
      headersMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}
