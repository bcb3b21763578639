/**
 * One ComfyUI server's API (ComfyUI `server.py`): the HTTP routes the engine uses and the /ws
 * event stream. Every call has a deadline; transfers (uploads, downloads) have an idle deadline
 * instead, so a 400 MB HD image on a slow link is not cut off while bytes keep coming. A network
 * failure, a timeout or a 5xx is a ComfyServerError (the pool leaves the server out for a while);
 * any other 4xx is a ComfyRequestError, an error of the job alone.
 */
import WebSocket from 'ws';
import {
  isRecord,
  type ComfyImageRef,
  type ComfyWorkflow,
  type ComfyWsMessage,
  type HistoryEntry,
  type NodeError,
  type NodeErrorReason,
  type ObjectInfo,
  type QueuePromptResponse,
  type QueueResponse,
  type SystemStats,
  type UploadImageResponse,
} from './api-types.js';
import { ComfyRequestError, ComfyServerError, ComfyValidationError } from './errors.js';

/** How Tessera proves itself to a proxy in front of ComfyUI (ComfyUI has no login of its own). */
export interface ComfyAuth {
  /** A header sent with every request and the websocket upgrade ("X-API-Key: ..."). */
  header?: { name: string; value: string };
  /** `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** A query parameter added to every URL, the websocket's too (`?token=...`). */
  queryToken?: { name: string; value: string };
}

export interface ComfyClientOptions {
  /** Deadline of one API call (queue, history, interrupt ...). */
  requestTimeoutMs?: number;
  /** An upload or download fails once no byte has moved for this long. */
  transferIdleTimeoutMs?: number;
  /** The websocket must open within this, and answer each ping within this. */
  socketTimeoutMs?: number;
  /** Deadline of GET /object_info, which lists every node class (megabytes on a full server). */
  objectInfoTimeoutMs?: number;
  auth?: ComfyAuth;
}

const DEFAULTS: Required<Omit<ComfyClientOptions, 'auth'>> = {
  requestTimeoutMs: 15_000,
  transferIdleTimeoutMs: 60_000,
  socketTimeoutMs: 15_000,
  objectInfoTimeoutMs: 60_000,
};

/** A deadline that moves on with every touch(): it fires only when a transfer stalls. */
interface IdleDeadline {
  signal: AbortSignal;
  touch(): void;
  stop(): void;
}

function idleDeadline(ms: number): IdleDeadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    if (controller.signal.aborted) return;
    timer = setTimeout(() => controller.abort(new Error('idle')), ms);
  };
  touch();
  return { signal: controller.signal, touch, stop: () => clearTimeout(timer) };
}

/**
 * A stream that touches `idle` with each chunk and stops it at the end; when the idle deadline
 * ends it, it fails with `stalled()` rather than a bare abort.
 */
function watched(
  body: ReadableStream<Uint8Array>,
  idle: IdleDeadline,
  stalled: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          idle.stop();
          controller.close();
          return;
        }
        idle.touch();
        controller.enqueue(value);
      } catch (error) {
        idle.stop();
        controller.error(idle.signal.aborted ? stalled() : error);
      }
    },
    cancel(reason) {
      idle.stop();
      return reader.cancel(reason);
    },
  });
}

export class ComfyClient {
  /** The base URL without credentials or a trailing slash: for logs, errors and /api/health. */
  readonly displayUrl: string;
  private readonly base: URL;
  /** Headers every request and the websocket carry (basic or bearer authorization, a key). */
  private readonly authHeaders: Record<string, string> = {};
  private readonly queryToken: { name: string; value: string } | undefined;
  private readonly options: Required<Omit<ComfyClientOptions, 'auth'>>;

  constructor(baseUrl: string, options: ComfyClientOptions = {}) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (this.base.username || this.base.password) {
      const user = decodeURIComponent(this.base.username);
      const password = decodeURIComponent(this.base.password);
      this.authHeaders.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      // fetch refuses URLs with credentials: they travel in the header instead.
      this.base.username = '';
      this.base.password = '';
    }
    const { auth, ...rest } = options;
    if (auth?.bearerToken) this.authHeaders.authorization = `Bearer ${auth.bearerToken}`;
    if (auth?.header) this.authHeaders[auth.header.name.toLowerCase()] = auth.header.value;
    this.queryToken = auth?.queryToken;
    this.displayUrl = this.base.href.replace(/\/$/, '');
    this.options = { ...DEFAULTS, ...rest };
  }

  /** Same as displayUrl. */
  get url(): string {
    return this.displayUrl;
  }

  /**
   * POST /upload/image (multipart: image, type, subfolder, overwrite). `type` 'temp' puts the
   * file in ComfyUI's temp folder, which ComfyUI empties at each start.
   */
  async uploadImage(
    data: Uint8Array,
    filename: string,
    options: { subfolder?: string; overwrite?: boolean; type?: 'input' | 'temp' } = {},
    signal?: AbortSignal,
  ): Promise<UploadImageResponse> {
    const form = new FormData();
    form.append('image', new Blob([data], { type: 'image/png' }), filename);
    form.append('type', options.type ?? 'input');
    form.append('subfolder', options.subfolder ?? '');
    form.append('overwrite', options.overwrite === false ? 'false' : 'true');
    // The multipart body as a stream, so that each chunk sent moves the idle deadline on.
    const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
    const idle = idleDeadline(this.options.transferIdleTimeoutMs);
    try {
      const res = await this.fetch(
        'upload/image',
        {
          method: 'POST',
          headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
          body: encoded.body ? watched(encoded.body, idle, () => new Error('stalled')) : null,
          duplex: 'half',
        } as RequestInit,
        idle.signal,
        `sent nothing for ${this.options.transferIdleTimeoutMs / 1000} s`,
        signal,
      );
      idle.touch();
      const body = await this.readJson(res, 'POST /upload/image');
      if (!isRecord(body) || typeof body.name !== 'string') {
        throw new ComfyServerError(this.displayUrl, 'POST /upload/image answered without a name');
      }
      return {
        name: body.name,
        subfolder: typeof body.subfolder === 'string' ? body.subfolder : '',
        type: typeof body.type === 'string' ? body.type : 'input',
      };
    } finally {
      idle.stop();
    }
  }

  /**
   * POST /prompt. A 400 becomes a ComfyValidationError. A 200 may still carry node_errors (for
   * outputs ComfyUI will not run): they are returned for the caller to weigh.
   */
  async queuePrompt(
    prompt: ComfyWorkflow,
    clientId: string,
    signal?: AbortSignal,
  ): Promise<QueuePromptResponse> {
    const res = await this.fetch(
      'prompt',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, client_id: clientId }),
      },
      ...this.requestDeadline(),
      signal,
      { allow4xx: true },
    );
    if (res.status >= 400 && res.status !== 400) {
      await res.body?.cancel().catch(() => undefined);
      throw new ComfyRequestError(
        this.displayUrl,
        res.status,
        `POST /prompt answered ${res.status}`,
      );
    }
    const body = await this.readJson(res, 'POST /prompt');
    if (res.status === 400) {
      const nodeErrors = isRecord(body) && isRecord(body.node_errors) ? body.node_errors : {};
      const error = isRecord(body)
        ? (body.error as NodeErrorReason | string | undefined)
        : undefined;
      throw new ComfyValidationError(
        this.displayUrl,
        error,
        nodeErrors as Record<string, NodeError>,
      );
    }
    if (!isRecord(body) || typeof body.prompt_id !== 'string') {
      throw new ComfyServerError(this.displayUrl, 'POST /prompt answered without a prompt_id');
    }
    return {
      prompt_id: body.prompt_id,
      number: typeof body.number === 'number' ? body.number : 0,
      node_errors: isRecord(body.node_errors)
        ? (body.node_errors as Record<string, NodeError>)
        : {},
    };
  }

  /** GET /prompt: prompts waiting or running on the server (exec_info.queue_remaining). */
  async queueRemaining(
    signal?: AbortSignal,
    timeoutMs = this.options.requestTimeoutMs,
  ): Promise<number> {
    const res = await this.fetch(
      'prompt',
      { method: 'GET' },
      ...this.requestDeadline(timeoutMs),
      signal,
    );
    const body = await this.readJson(res, 'GET /prompt');
    const remaining =
      isRecord(body) && isRecord(body.exec_info) ? body.exec_info.queue_remaining : undefined;
    if (typeof remaining !== 'number' || !Number.isFinite(remaining)) {
      throw new ComfyServerError(this.displayUrl, 'GET /prompt answered without queue_remaining');
    }
    return remaining;
  }

  /** GET /queue: the running and pending prompts. */
  async queue(signal?: AbortSignal): Promise<QueueResponse> {
    const res = await this.fetch('queue', { method: 'GET' }, ...this.requestDeadline(), signal);
    const body = await this.readJson(res, 'GET /queue');
    if (
      !isRecord(body) ||
      !Array.isArray(body.queue_running) ||
      !Array.isArray(body.queue_pending)
    ) {
      throw new ComfyServerError(this.displayUrl, 'GET /queue answered something else');
    }
    return body as unknown as QueueResponse;
  }

  /** GET /history/{prompt_id}; undefined while the prompt has no history yet. */
  async history(promptId: string, signal?: AbortSignal): Promise<HistoryEntry | undefined> {
    const res = await this.fetch(
      `history/${encodeURIComponent(promptId)}`,
      { method: 'GET' },
      ...this.requestDeadline(),
      signal,
    );
    const body = await this.readJson(res, 'GET /history');
    if (!isRecord(body))
      throw new ComfyServerError(this.displayUrl, 'GET /history answered something else');
    const entry = body[promptId];
    return isRecord(entry) ? (entry as unknown as HistoryEntry) : undefined;
  }

  /** GET /object_info: every node class with its inputs (and the model files of its lists). */
  async objectInfo(signal?: AbortSignal): Promise<ObjectInfo> {
    const res = await this.fetch(
      'object_info',
      { method: 'GET' },
      ...this.requestDeadline(this.options.objectInfoTimeoutMs),
      signal,
    );
    const body = await this.readJson(res, 'GET /object_info');
    if (!isRecord(body)) {
      throw new ComfyServerError(this.displayUrl, 'GET /object_info answered something else');
    }
    return body as ObjectInfo;
  }

  /** GET /system_stats: ComfyUI's version and the devices. */
  async systemStats(signal?: AbortSignal): Promise<SystemStats> {
    const res = await this.fetch(
      'system_stats',
      { method: 'GET' },
      ...this.requestDeadline(),
      signal,
    );
    const body = await this.readJson(res, 'GET /system_stats');
    if (!isRecord(body) || !isRecord(body.system)) {
      throw new ComfyServerError(this.displayUrl, 'GET /system_stats answered something else');
    }
    return body as unknown as SystemStats;
  }

  /** POST /history {delete}: forgets finished prompts (their files stay on the server). */
  async deleteHistory(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.post('history', { delete: promptIds }, signal);
  }

  /** POST /queue {delete}: takes prompts that have not started off the queue. */
  async deleteFromQueue(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.post('queue', { delete: promptIds }, signal);
  }

  /**
   * POST /interrupt. The prompt id makes ComfyUI 0.3.57 and later stop only that prompt; older
   * ones stop whatever runs, so the caller sends it only while its own prompt runs.
   */
  async interrupt(promptId: string, signal?: AbortSignal): Promise<void> {
    await this.post('interrupt', { prompt_id: promptId }, signal);
  }

  /**
   * GET /view: an output image. The body is the caller's to stream; it fails (aborts) once no
   * byte has come for the idle timeout, however long the whole download takes.
   */
  async view(image: ComfyImageRef, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const query = new URLSearchParams({
      filename: image.filename,
      subfolder: image.subfolder ?? '',
      type: image.type ?? 'output',
    });
    const idle = idleDeadline(this.options.transferIdleTimeoutMs);
    try {
      const res = await this.fetch(
        `view?${query.toString()}`,
        { method: 'GET' },
        idle.signal,
        `sent nothing for ${this.options.transferIdleTimeoutMs / 1000} s`,
        signal,
      );
      if (!res.body) throw new ComfyServerError(this.displayUrl, 'GET /view answered no body');
      return watched(
        res.body as ReadableStream<Uint8Array>,
        idle,
        () =>
          new ComfyServerError(
            this.displayUrl,
            `GET /view sent nothing for ${this.options.transferIdleTimeoutMs / 1000} s`,
          ),
      );
    } catch (error) {
      idle.stop();
      throw error;
    }
  }

  /**
   * Opens /ws?clientId=... and resolves once it is open. ComfyUI sends a prompt's events to the
   * socket of the client id the prompt was queued with, also to a new socket of the same id.
   */
  openSocket(clientId: string, signal?: AbortSignal): Promise<ComfySocket> {
    const wsUrl = this.urlOf(`ws?clientId=${encodeURIComponent(clientId)}`);
    wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    return ComfySocket.open(
      wsUrl,
      this.displayUrl,
      this.options.socketTimeoutMs,
      this.authHeaders,
      signal,
    );
  }

  private urlOf(path: string): URL {
    const url = new URL(path, this.base);
    if (this.queryToken) url.searchParams.set(this.queryToken.name, this.queryToken.value);
    return url;
  }

  private requestDeadline(ms = this.options.requestTimeoutMs): [AbortSignal, string] {
    return [AbortSignal.timeout(ms), `did not answer within ${ms / 1000} s`];
  }

  private async post(path: string, body: unknown, signal?: AbortSignal): Promise<void> {
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
  private async fetch(
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

  private async readJson(res: Response, what: string): Promise<unknown> {
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

export type SocketListener = (message: ComfyWsMessage) => void;
export type CloseListener = (error: ComfyServerError) => void;

/**
 * ComfyUI's /ws for one client id: JSON messages are handed to listeners, binary frames
 * (previews and text: a 4-byte event type, then the payload) are counted and skipped. Pings every
 * `timeoutMs`; a socket that closes, errs or misses a pong is reported once as dropped.
 */
export class ComfySocket {
  private readonly listeners = new Set<SocketListener>();
  private readonly closeListeners = new Set<CloseListener>();
  private heartbeat: NodeJS.Timeout | undefined;
  private awaitingPong = false;
  private closedByUs = false;
  private dropped: ComfyServerError | undefined;
  /** Binary frames seen (preview images): counted, never decoded. */
  binaryFrames = 0;

  private constructor(
    private readonly ws: WebSocket,
    private readonly serverUrl: string,
    timeoutMs: number,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('pong', () => {
      this.awaitingPong = false;
    });
    ws.on('close', (code) => this.drop(`dropped the websocket (close code ${code})`));
    ws.on('error', (error) => this.drop(`websocket error: ${error.message}`));
    this.heartbeat = setInterval(() => {
      if (this.awaitingPong) {
        this.drop(`websocket did not answer a ping within ${timeoutMs / 1000} s`);
        ws.terminate();
        return;
      }
      this.awaitingPong = true;
      try {
        ws.ping();
      } catch {
        // Not open any more: the close event reports it.
      }
    }, timeoutMs);
    this.heartbeat.unref();
  }

  static open(
    url: URL,
    serverUrl: string,
    timeoutMs: number,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<ComfySocket> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const ws = new WebSocket(url, {
        handshakeTimeout: timeoutMs,
        perMessageDeflate: false,
        headers,
      });
      const onAbort = () => {
        ws.terminate();
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      ws.once('open', () => {
        signal?.removeEventListener('abort', onAbort);
        ws.removeAllListeners('error');
        resolve(new ComfySocket(ws, serverUrl, timeoutMs));
      });
      ws.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(
          new ComfyServerError(serverUrl, `websocket /ws failed: ${causeText(error)}`, {
            cause: error,
          }),
        );
      });
    });
  }

  onMessage(listener: SocketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once if the socket drops (not when closed with close()); at once if it already did. */
  onDrop(listener: CloseListener): () => void {
    if (this.dropped) {
      listener(this.dropped);
      return () => undefined;
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.closedByUs = true;
    clearInterval(this.heartbeat);
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close(1000);
    }
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) {
      // A 4-byte big-endian event type (BINARY_EVENT), then previews or text: not needed.
      this.binaryFrames++;
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(rawToString(data));
    } catch {
      return;
    }
    if (!isRecord(message) || typeof message.type !== 'string' || !isRecord(message.data)) return;
    for (const listener of this.listeners) listener(message as ComfyWsMessage);
  }

  private drop(reason: string): void {
    clearInterval(this.heartbeat);
    if (this.closedByUs || this.dropped) return;
    this.dropped = new ComfyServerError(this.serverUrl, reason);
    for (const listener of this.closeListeners) listener(this.dropped);
    this.closeListeners.clear();
  }
}

function rawToString(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
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
