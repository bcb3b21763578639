/**
 * ComfyUI's /ws event stream for one client id (ComfyUI `server.py`), opened by ComfyClient.
 */
import WebSocket from 'ws';
import { isRecord, type ComfyWsMessage } from './api-types.js';
import { ComfyServerError } from './errors.js';
import { causeText } from './server-http.js';

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
