/**
 * One ComfyUI server's address and how a request reaches it: credentials on every request (ComfyUI
 * has no login of its own; a proxy in front of it may), a deadline on every call, and which
 * failures are the server's and which the request's. A network failure, a timeout or a 5xx is a
 * ComfyServerError (the pool leaves the server out for a while); any other 4xx is a
 * ComfyRequestError, an error of the job alone.
 */
import { ComfyRequestError, ComfyServerError } from './errors.js';

/** How Tessera proves itself to a proxy in front of ComfyUI (ComfyUI has no login of its own). */
export interface ComfyAuth {
  /** A header sent with every request and the websocket upgrade ("X-API-Key: ..."). */
  header?: { name: string; value: string };
  /** `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** A query parameter added to every URL, the websocket's too (`?token=...`). */
  queryToken?: { name: string; value: string };
}

export class ServerHttp {
  /** The base URL without credentials or a trailing slash: for logs, errors and /api/health. */
  readonly displayUrl: string;
  /** Headers every request and the websocket carry (basic or bearer authorization, a key). */
  readonly authHeaders: Record<string, string> = {};
  private readonly base: URL;
  private readonly queryToken: { name: string; value: string } | undefined;

  constructor(
    baseUrl: string,
    auth: ComfyAuth | undefined,
    private readonly requestTimeoutMs: number,
  ) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (this.base.username || this.base.password) {
      const user = decodeURIComponent(this.base.username);
      const password = decodeURIComponent(this.base.password);
      this.authHeaders.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      // fetch refuses URLs with credentials: they travel in the header instead.
      this.base.username = '';
      this.base.password = '';
    }
    if (auth?.bearerToken) this.authHeaders.authorization = `Bearer ${auth.bearerToken}`;
    if (auth?.header) this.authHeaders[auth.header.name.toLowerCase()] = auth.header.value;
    this.queryToken = auth?.queryToken;
    this.displayUrl = this.base.href.replace(/\/$/, '');
  }

  /** `path` under the base URL, with the query token if there is one. */
  urlOf(path: string): URL {
    const url = new URL(path, this.base);
    if (this.queryToken) url.searchParams.set(this.queryToken.name, this.queryToken.value);
    return url;
  }

  /** The deadline of one API call, and how to say it passed. */
  requestDeadline(ms = this.requestTimeoutMs): [AbortSignal, string] {
    return [AbortSignal.timeout(ms), `did not answer within ${ms / 1000} s`];
  }

  /** GET of a JSON answer within the call's deadline (or `timeoutMs`). */
  async getJson(
    path: string,
    signal: AbortSignal | undefined,
    timeoutMs = this.requestTimeoutMs,
  ): Promise<unknown> {
    const res = await this.fetch(
      path,
      { method: 'GET' },
      ...this.requestDeadline(timeoutMs),
      signal,
    );
    // "GET /history" for "history/<prompt id>".
    return this.readJson(res, `GET /${path.split(/[/?]/)[0]}`);
  }

  /** POST of a JSON body whose answer is not read. */
  async post(path: string, body: unknown, signal?: AbortSignal): Promise<void> {
    const res = await this.fetch(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      ...this.requestDeadline(),
      signal,
    );
    await res.body?.cancel();
  }

  /**
   * fetch with a deadline (`deadline` aborting, `late` saying how). The caller's abort is passed
   * through as it is; a deadline, a network failure or a 5xx is a ComfyServerError, a 4xx a
   * ComfyRequestError unless allowed.
   */
  async fetch(
    path: string,
    init: RequestInit,
    deadline: AbortSignal,
    late: string,
    signal: AbortSignal | undefined,
    { allow4xx = false } = {},
  ): Promise<Response> {
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const what = `${init.method ?? 'GET'} /${path.split('?')[0]}`;
    let res: Response;
    try {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(this.authHeaders)) headers.set(name, value);
      res = await fetch(this.urlOf(path), { ...init, headers, signal: combined });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (deadline.aborted) {
        throw new ComfyServerError(this.displayUrl, `${what} ${late}`, { cause: error });
      }
      throw new ComfyServerError(this.displayUrl, `${what} failed: ${causeText(error)}`, {
        cause: error,
      });
    }
    if (res.status >= 500) {
      await res.body?.cancel().catch(() => undefined);
      throw new ComfyServerError(this.displayUrl, `${what} answered ${res.status}`);
    }
    if (res.status >= 400 && !allow4xx) {
      const reason = await shortTextOf(res);
      throw new ComfyRequestError(
        this.displayUrl,
        res.status,
        `${what} answered ${res.status}${reason ? `: ${reason}` : ''}`,
      );
    }
    return res;
  }

  async readJson(res: Response, what: string): Promise<unknown> {
    try {
      return await res.json();
    } catch (error) {
      throw new ComfyServerError(this.displayUrl, `${what} answered no JSON`, { cause: error });
    }
  }
}

/** The innermost message of a fetch failure ("connect ECONNREFUSED 127.0.0.1:8188"). */
export function causeText(error: unknown): string {
  let current: unknown = error;
  let text = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause; depth++) {
    current = current.cause;
    if (current instanceof Error && current.message) text = current.message;
  }
  return text;
}

/**
 * A plain-text answer's first line, up to 200 characters (aiohttp's "Maximum request body size
 * 104857600 exceeded." on a 413), for the job's error. At most 1 KB is read; any other body is
 * dropped unread.
 */
async function shortTextOf(res: Response): Promise<string> {
  if (!res.body || !(res.headers.get('content-type') ?? '').startsWith('text/plain')) {
    await res.body?.cancel().catch(() => undefined);
    return '';
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < 1024) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    return '';
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim().split('\n')[0] ?? '';
  return text.slice(0, 200);
}
