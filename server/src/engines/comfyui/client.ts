/**
 * One ComfyUI server's API (ComfyUI `server.py`): the HTTP routes the engine uses, each answer
 * checked for the shape the engine relies on, and the /ws event stream (comfy-socket.ts). Every
 * call has a deadline; transfers (uploads, downloads) have an idle deadline instead
 * (idle-deadline.ts). How a request reaches the server and which failures are whose:
 * server-http.ts.
 */
import {
  isRecord,
  type ComfyImageRef,
  type ComfyWorkflow,
  type HistoryEntry,
  type NodeError,
  type NodeErrorReason,
  type ObjectInfo,
  type QueuePromptResponse,
  type QueueResponse,
  type SystemStats,
  type UploadImageResponse,
} from './api-types.js';
import { ComfySocket } from './comfy-socket.js';
import { ComfyRequestError, ComfyServerError, ComfyValidationError } from './errors.js';
import { idleDeadline, watched } from './idle-deadline.js';
import { ServerHttp, type ComfyAuth } from './server-http.js';

// settings.ts reads the auth settings' type from here.
export type { ComfyAuth };

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

export class ComfyClient {
  /** The base URL without credentials or a trailing slash: for logs, errors and /api/health. */
  readonly displayUrl: string;
  private readonly http: ServerHttp;
  private readonly options: Required<Omit<ComfyClientOptions, 'auth'>>;

  constructor(baseUrl: string, options: ComfyClientOptions = {}) {
    const { auth, ...rest } = options;
    this.options = { ...DEFAULTS, ...rest };
    this.http = new ServerHttp(baseUrl, auth, this.options.requestTimeoutMs);
    this.displayUrl = this.http.displayUrl;
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
      const res = await this.http.fetch(
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
      const body = await this.http.readJson(res, 'POST /upload/image');
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
    const res = await this.http.fetch(
      'prompt',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, client_id: clientId }),
      },
      ...this.http.requestDeadline(),
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
    const body = await this.http.readJson(res, 'POST /prompt');
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
    const body = await this.http.getJson('prompt', signal, timeoutMs);
    const remaining =
      isRecord(body) && isRecord(body.exec_info) ? body.exec_info.queue_remaining : undefined;
    if (typeof remaining !== 'number' || !Number.isFinite(remaining)) {
      throw new ComfyServerError(this.displayUrl, 'GET /prompt answered without queue_remaining');
    }
    return remaining;
  }

  /** GET /queue: the running and pending prompts. */
  async queue(signal?: AbortSignal): Promise<QueueResponse> {
    const body = await this.http.getJson('queue', signal);
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
    const body = await this.http.getJson(`history/${encodeURIComponent(promptId)}`, signal);
    if (!isRecord(body))
      throw new ComfyServerError(this.displayUrl, 'GET /history answered something else');
    const entry = body[promptId];
    return isRecord(entry) ? (entry as unknown as HistoryEntry) : undefined;
  }

  /** GET /object_info: every node class with its inputs (and the model files of its lists). */
  async objectInfo(signal?: AbortSignal): Promise<ObjectInfo> {
    const body = await this.http.getJson('object_info', signal, this.options.objectInfoTimeoutMs);
    if (!isRecord(body)) {
      throw new ComfyServerError(this.displayUrl, 'GET /object_info answered something else');
    }
    return body as ObjectInfo;
  }

  /** GET /system_stats: ComfyUI's version and the devices. */
  async systemStats(signal?: AbortSignal): Promise<SystemStats> {
    const body = await this.http.getJson('system_stats', signal);
    if (!isRecord(body) || !isRecord(body.system)) {
      throw new ComfyServerError(this.displayUrl, 'GET /system_stats answered something else');
    }
    return body as unknown as SystemStats;
  }

  /** POST /history {delete}: forgets finished prompts (their files stay on the server). */
  async deleteHistory(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.http.post('history', { delete: promptIds }, signal);
  }

  /** POST /queue {delete}: takes prompts that have not started off the queue. */
  async deleteFromQueue(promptIds: string[], signal?: AbortSignal): Promise<void> {
    await this.http.post('queue', { delete: promptIds }, signal);
  }

  /**
   * POST /interrupt. The prompt id makes ComfyUI 0.3.57 and later stop only that prompt; older
   * ones stop whatever runs, so the caller sends it only while its own prompt runs.
   */
  async interrupt(promptId: string, signal?: AbortSignal): Promise<void> {
    await this.http.post('interrupt', { prompt_id: promptId }, signal);
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
      const res = await this.http.fetch(
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
    const wsUrl = this.http.urlOf(`ws?clientId=${encodeURIComponent(clientId)}`);
    wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
    return ComfySocket.open(
      wsUrl,
      this.displayUrl,
      this.options.socketTimeoutMs,
      this.http.authHeaders,
      signal,
    );
  }
}
