/**
 * A prompt's websocket, kept open through drops (run-prompt.ts): reopened with the same client
 * id, the prompt's state asked after each reopening and after a silence.
 */
import type { ComfyClient } from './client.js';
import type { ComfySocket } from './comfy-socket.js';
import { ComfyPromptLostError, ComfyServerError, ComfyServerLeftError } from './errors.js';
import type { PromptFollower } from './prompt-follower.js';

/** Where a prompt's websocket drops and reopenings are told (the server's logger). */
export interface PromptLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** How a prompt's socket is kept (part of RunPromptOptions). */
export interface LinkOptions {
  signal: AbortSignal;
  /** Ask /history and /queue after this much silence on the socket, ms (default 10 s). */
  pollMs?: number;
  /** Keep trying to open a dropped socket again for this long, ms (default 30 s). */
  reconnectMs?: number;
  /**
   * Whether another server could take the prompt now (another of the farm is up): then a dropped
   * socket that cannot be opened again at the first try is given up at once, not after
   * `reconnectMs`, and the prompt fails with a ComfyServerLeftError for the engine to queue it
   * there. Unset or false (one server): the socket is tried for `reconnectMs`.
   */
  elsewhere?: () => boolean;
  /** Told of each websocket drop, reopening and give-up. */
  log?: PromptLog;
}

/**
 * The prompt's websocket, kept open: a dropped socket is opened again with the same client id
 * for up to `reconnectMs` (at most one try when `elsewhere` says another server is up), after
 * which the prompt fails as a server error. After each reopening, and after `pollMs` without a
 * message, the server is asked for the prompt's state.
 */
export class SocketLink {
  private socket: ComfySocket | undefined;
  private closed = false;
  private lastMessageAt = Date.now();
  private poller: NodeJS.Timeout | undefined;
  private promptId: string | undefined;
  private checking = false;

  constructor(
    private readonly client: ComfyClient,
    private readonly clientId: string,
    private readonly follower: PromptFollower,
    private readonly options: LinkOptions,
  ) {}

  async open(signal: AbortSignal): Promise<void> {
    this.attach(await this.client.openSocket(this.clientId, signal));
  }

  startPolling(promptId: string): void {
    this.promptId = promptId;
    const every = this.options.pollMs ?? 10_000;
    this.poller = setInterval(() => {
      if (Date.now() - this.lastMessageAt >= every) void this.check();
    }, every);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.poller);
    this.socket?.close();
  }

  private attach(socket: ComfySocket): void {
    this.socket = socket;
    socket.onMessage((message) => {
      this.lastMessageAt = Date.now();
      this.follower.handle(message);
    });
    socket.onDrop((error) => void this.reopen(error));
  }

  private async reopen(dropped: ComfyServerError): Promise<void> {
    const droppedAt = Date.now();
    const until = droppedAt + (this.options.reconnectMs ?? 30_000);
    const about = {
      server: this.client.displayUrl,
      promptId: this.promptId,
      clientId: this.clientId,
    };
    if (!this.closed && !this.follower.settled) {
      this.options.log?.warn(
        { ...about, err: dropped.message },
        'ComfyUI websocket dropped, reopening',
      );
    }
    let pause = 250;
    let attempts = 0;
    let last: unknown = dropped;
    let leaving = false;
    while (!this.closed && !this.follower.settled && Date.now() < until) {
      try {
        attempts++;
        const socket = await this.client.openSocket(this.clientId, this.options.signal);
        if (this.closed) {
          socket.close();
          return;
        }
        this.options.log?.info(
          { ...about, attempts, downMs: Date.now() - droppedAt },
          'ComfyUI websocket reopened',
        );
        this.attach(socket);
        // Whatever was sent while no socket was open is lost: ask where the prompt is.
        await this.check();
        return;
      } catch (error) {
        if (this.options.signal.aborted) return;
        last = error;
        // The farm has a server up: the job goes there now instead of waiting for this one.
        if (this.options.elsewhere?.()) {
          leaving = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 4000);
      }
    }
    if (this.closed || this.follower.settled) return;
    const why = last instanceof Error ? last.message : String(last);
    this.options.log?.warn(
      { ...about, attempts, downMs: Date.now() - droppedAt, err: why },
      leaving
        ? 'ComfyUI websocket could not be reopened: the job moves to another server'
        : 'ComfyUI websocket could not be reopened',
    );
    const message = `${dropped.message.replace(/^ComfyUI server \S+: /, '')}, and the websocket could not be opened again (${why.replace(/^ComfyUI server \S+: /, '')})`;
    this.follower.fail(
      leaving
        ? new ComfyServerLeftError(this.client.displayUrl, message)
        : new ComfyServerError(this.client.displayUrl, message),
    );
  }

  /** Asks /history, then /queue, where the prompt is; settles the follower if it is over. */
  private async check(): Promise<void> {
    const promptId = this.promptId;
    if (promptId === undefined || this.checking || this.follower.settled) return;
    this.checking = true;
    try {
      const entry = await this.client.history(promptId);
      if (entry) {
        this.follower.finishWith(entry);
        return;
      }
      const queue = await this.client.queue();
      if (queue.queue_running.some((item) => item[1] === promptId)) {
        this.follower.markStarted();
        return;
      }
      if (queue.queue_pending.some((item) => item[1] === promptId)) return;
      // It may have ended between the two questions.
      const late = await this.client.history(promptId);
      if (late) {
        this.follower.finishWith(late);
        return;
      }
      this.follower.fail(new ComfyPromptLostError(this.client.displayUrl, promptId));
    } catch {
      // Not answering now: the socket's heartbeat and reopening tell whether it is gone.
    } finally {
      this.checking = false;
    }
  }
}
