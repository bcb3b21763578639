/**
 * One ComfyUI server's API (ComfyUI `server.py`): the HTTP routes the engine uses and the /ws
 * event stream. Every call has a deadline; a server that does not answer, refuses the
 * connection or answers with a server error becomes a ComfyServerError, which the pool takes
 * as a reason to leave the server out for a while.
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
  type QueuePromptResponse,
  type QueueResponse,
  type UploadImageResponse,
} from './api-types.js';
import { ComfyServerError, ComfyValidationError } from './errors.js';

export interface ComfyClientOptions {
  /** Deadline of one API call (queue, history, interrupt ...). */
  requestTimeoutMs?: number;
  /** Deadline of an upload or a download, body included. */
  transferTimeoutMs?: number;
  /** The websocket must open within this, and answer each ping within this. */
  socketTimeoutMs?: number;
}

const DEFAULTS: Required<ComfyClientOptions> = {
  requestTimeoutMs: 15_000,
  transferTimeoutMs: 5 * 60_000,
  socketTimeoutMs: 15_000,
};

export class ComfyClient {
  /** The base URL without credentials or a trailing slash: for logs, errors and /api/health. */
  readonly displayUrl: string;
  private readonly base: URL;
  /** Basic authentication from credentials in the URL (http://user:password@host/). */
  private readonly authorization: string | undefined;
  private readonly options: Required<ComfyClientOptions>;

  constructor(baseUrl: string, options: ComfyClientOptions = {}) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    if (this.base.username || this.base.password) {
      const user = decodeURIComponent(this.base.username);
      const password = decodeURIComponent(this.base.password);
      this.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      // fetch refuses URLs with credentials: they travel in the header instead.
      this.base.username = '';
      this.base.password = '';
    }
    this.displayUrl = this.base.href.replace(/\/$/, '');
    this.options = { ...DEFAULTS, ...options };
  }

  /** Same as displayUrl. */
  get url(): string {
    return this.displayUrl;
  }

  /** POST /upload/image (multipart: image, type, subfolder, overwrite). */
  async uploadImage(
    data: Uint8Array,
    filename: string,
    options: { subfolder?: string; overwrite?: boolean } = {},
    signal?: AbortSignal,
  ): Promise<UploadImageResponse> {
    const form = new FormData();
    form.append('image', new Blob([data], { type: 'image/png' }), filename);
    form.append('type', 'input');
    form.append('subfolder', options.subfolder ?? '');
    form.append('overwrite', options.overwrite === false ? 'false' : 'true');
    const res = await this.fetch(
      'upload/image',
      { method: 'POST', body: form },
      this.options.transferTimeoutMs,
      signal,
    );
    const body = await this.readJson(res, 'POST /upload/image');
    if (!isRecord(body) || typeof body.name !== 'string') {
      throw new ComfyServerError(this.displayUrl, 'POST /upload/image answered without a name');
    }
    return {
      name: body.name,
      subfolder: typeof body.subfolder === 'string' ? body.subfolder : '',
      type: typeof body.type === 'string' ? body.type : 'input',
    };
  }

  /** POST /prompt. A 400 with node_errors becomes a ComfyValidationError. */
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
      this.options.requestTimeoutMs,
      signal,
      { allow4xx: true },
    );
    const body = await this.readJson(res, 'POST /prompt');
    if (res.status >= 400) {
      if (isRecord(body) && ('node_errors' in body || 'error' in body)) {
        const nodeErrors = isRecord(body.node_errors)
          ? (body.node_errors as Record<string, NodeError>)
          : {};
        const error = body.error as NodeErrorReason | string | undefined;
        throw new ComfyValidationError(this.displayUrl, error, nodeErrors);
      }
      throw new ComfyServerError(this.displayUrl, `POST /prompt answered ${res.status}`);
    }
    if (!isRecord(body) || typeof body.prompt_id !== 'string') {
      throw new ComfyServerError(this.displayUrl, 'POST /prompt answered without a prompt_id');
    }
    const nodeErrors = isRecord(body.node_errors)
      ? (body.node_errors as Record<string, NodeError>)
      : {};
    // ComfyUI queues a prompt whose other outputs are valid, reporting the failed ones: Tessera's
    // templates have one output, so any node error means that output would not be made.
    if (Object.keys(nodeErrors).length > 0) {
      await this.deleteFromQueue([body.prompt_id]).catch(() => undefined);
      throw new ComfyValidationError(this.displayUrl, undefined, nodeErrors);
    }
    return {
      prompt_id: body.prompt_id,
      number: typeof body.number === 'number' ? body.number : 0,
      node_errors: nodeErrors,
    };
  }

  /** GET /prompt: prompts waiting or running on the server (exec_info.queue_remaining). */
  async queueRemaining(
    signal?: AbortSignal,
    timeoutMs = this.options.requestTimeoutMs,
  ): Promise<number> {
    const res = await this.fetch('prompt', { method: 'GET' }, timeoutMs, signal);
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
    const res = await this.fetch('queue', { method: 'GET' }, this.options.requestTimeoutMs, signal);
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
      this.options.requestTimeoutMs,
      signal,
    );
    const body = await this.readJson(res, 'GET /history');
    if (!isRecord(body))
      throw new ComfyServerError(this.displayUrl, 'GET /history answered something else');
    const entry = body[promptId];
    return isRecord(entry) ? (entry as unknown as HistoryEntry) : undefined;
  }

  /** POST /history {delete}: forgets a finished prompt (its files stay on the server). */
  async deleteHistory(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.post('history', { delete: promptIds }, signal);
  }

  /** POST /queue {delete}: takes prompts that have not started off the queue. */
  async deleteFromQueue(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.post('queue', { delete: promptIds }, signal);
  }

  /**
   * POST /interrupt. The prompt id makes recent ComfyUI versions stop only that prompt; older
   * ones stop whatever runs, so the caller sends it only while its own prompt runs.
   */
  async interrupt(promptId: string, signal?: AbortSignal): Promise<void> {
    await this.post('interrupt', { prompt_id: promptId }, signal);
  }

  /** GET /view: an output image; the body is left to the caller to stream. */
  async view(image: ComfyImageRef, signal?: AbortSignal): Promise<Response> {
    const query = new URLSearchParams({
      filename: image.filename,
      subfolder: image.subfolder ?? '',
      type: image.type ?? 'output',
    });
    const res = await this.fetch(
      `view?${query.toString()}`,
      { method: 'GET' },
      this.options.transferTimeoutMs,
      signal,
    );
    if (!res.body) throw new ComfyServerError(this.displayUrl, 'GET /view answered no body');
    return res;
  }

  /**
   * Opens /ws?clientId=... and resolves once it is open. ComfyUI sends a prompt's events to the
   * socket of the client id the prompt was queued with.
   */
  openSocket(clientId: string, signal?: AbortSignal): Promise<ComfySocket> {
    const wsUrl = new URL(`ws?clientId=${encodeURIComponent(clientId)}`, this.base);
    wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    return ComfySocket.open(
      wsUrl,
      this.displayUrl,
      this.options.socketTimeoutMs,
      this.authorization,
      signal,
    );
  }

  private async post(path: string, body: unknown, signal?: AbortSignal): Promise<void> {
    const res = await this.fetch(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      this.options.requestTimeoutMs,
      signal,
    );
    await res.body?.cancel();
  }

  /**
   * fetch with a deadline. The caller's abort is passed through as it is; a timeout, a network
   * failure or a 5xx (and a 4xx unless allowed) is a ComfyServerError.
   */
  private async fetch(
    path: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    { allow4xx = false } = {},
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const what = `${init.method ?? 'GET'} /${path.split('?')[0]}`;
    let res: Response;
    try {
      const headers = new Headers(init.headers);
      if (this.authorization) headers.set('authorization', this.authorization);
      res = await fetch(new URL(path, this.base), { ...init, headers, signal: combined });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        throw new ComfyServerError(
          this.displayUrl,
          `${what} did not answer within ${timeoutMs / 1000} s`,
          { cause: error },
        );
      }
      throw new ComfyServerError(this.displayUrl, `${what} failed: ${causeText(error)}`, {
        cause: error,
      });
    }
    if (res.status >= 500 || (res.status >= 400 && !allow4xx)) {
      await res.body?.cancel().catch(() => undefined);
      throw new ComfyServerError(this.displayUrl, `${what} answered ${res.status}`);
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
 * (PREVIEW_IMAGE: event type, image type, JPEG or PNG bytes) are skipped. Pings every
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
    authorization: string | undefined,
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
        ...(authorization ? { headers: { authorization } } : {}),
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
      // 4-byte big-endian event type (1 = PREVIEW_IMAGE), then the image: progress pictures.
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
