/**
 * The prompt queue as ComfyUI's main.py prompt_worker runs it: one prompt at a time, lowest
 * number first, with the history of the finished ones and the `status` broadcast on each change.
 */
import type { HistoryEntry, QueueInfo, QueueItem } from '../../engines/comfyui/api-types.js';
import {
  clientOf,
  executePrompt,
  type Execution,
  type ExecutorSettings,
  type QueueEntry,
} from './executor.js';
import type { WsMessage } from './websocket.js';

/** What the executor needs beyond what the queue knows itself. */
export type QueueSettings = Omit<
  ExecutorSettings,
  'takeInterrupt' | 'nodeStarted' | 'mayStart' | 'cache'
>;

const queueItem = (e: QueueEntry): QueueItem => [
  e.number,
  e.promptId,
  e.prompt,
  e.extraData,
  e.outputs,
];

const byNumber = (a: QueueEntry, b: QueueEntry) => a.number - b.number;

export class PromptQueue {
  /** Finished prompts by prompt id, oldest first. */
  readonly history = new Map<string, HistoryEntry>();
  private readonly pending: QueueEntry[] = [];
  private running: QueueEntry | undefined;
  private runningNode: string | undefined;
  private counter = 0;
  /**
   * model_management's interrupt flag: set by POST /interrupt, cleared when a running prompt
   * takes it, and cleared as each prompt starts (execution.py), so an interrupt sent while
   * nothing runs stops nothing.
   */
  private interruptRequested = false;
  private holdNode: string | undefined;
  /** A held node's wait: woken to look again at whether it may start. */
  private readonly held: (() => void)[] = [];
  private readonly cache: ExecutorSettings['cache'] = new Map();

  /** `paused`: start held, prompts wait until resume(). */
  constructor(
    private readonly settings: QueueSettings,
    private paused: boolean,
  ) {}

  /** Prompts queued and running now. */
  remaining(): number {
    return this.pending.length + (this.running ? 1 : 0);
  }

  info(): QueueInfo {
    return { exec_info: { queue_remaining: this.remaining() } };
  }

  /** GET /queue's answer. */
  items(): { queue_running: QueueItem[]; queue_pending: QueueItem[] } {
    return {
      queue_running: this.running ? [queueItem(this.running)] : [],
      queue_pending: [...this.pending].sort(byNumber).map(queueItem),
    };
  }

  /** The number of a prompt queued without one: next in line, or first with `front`. */
  nextNumber(front: boolean): number {
    return front ? -this.counter++ : this.counter++;
  }

  /** Adds a prompt; it runs after runSoon(). */
  enqueue(entry: QueueEntry): void {
    this.pending.push(entry);
  }

  /** Removes every queued prompt (not the running one), and tells the clients. */
  clear(): void {
    this.pending.length = 0;
    this.broadcastStatus();
  }

  /**
   * Removes the queued prompts of these ids (not the running one). As execution.py's
   * delete_queue_item: a status for each one removed, two when it was the last (wiped).
   */
  delete(promptIds: unknown[]): void {
    for (const id of promptIds) {
      const at = this.pending.findIndex((e) => e.promptId === id);
      if (at < 0) continue;
      if (this.pending.length === 1) this.clear();
      else this.pending.splice(at, 1);
      this.broadcastStatus();
    }
  }

  /** Stops the running prompt, if it is `promptId` (ComfyUI ≥ 0.3.57), or whatever runs next. */
  interrupt(promptId: string | undefined): void {
    if (promptId === undefined || promptId === this.running?.promptId) {
      this.interruptRequested = true;
      this.wake();
    }
  }

  holdAt(node: string): void {
    this.holdNode = node;
  }

  release(): void {
    this.holdNode = undefined;
    this.wake();
  }

  /** Has a held node look again at whether it may start (released, interrupted, server gone). */
  wake(): void {
    for (const look of this.held.splice(0)) look();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.runSoon();
  }

  /** Starts the next prompt on the next turn of the event loop, if it can run. */
  runSoon(): void {
    setImmediate(this.pump);
  }

  /** Tells every websocket client the queue's size. */
  broadcastStatus(): void {
    this.settings.sockets.sendJson(undefined, 'status', { status: this.info() });
  }

  /** What a websocket client gets on connecting: the status, and its prompt's running node. */
  greet(sid: string): WsMessage[] {
    const messages: WsMessage[] = [{ type: 'status', data: { status: this.info(), sid } }];
    if (this.running && clientOf(this.running) === sid && this.runningNode !== undefined) {
      messages.push({ type: 'executing', data: { node: this.runningNode } });
    }
    return messages;
  }

  private readonly pump = () => {
    if (this.settings.isGone() || this.paused || this.running || this.pending.length === 0) {
      return;
    }
    this.pending.sort(byNumber);
    const entry = this.pending.shift();
    if (!entry) return;
    this.running = entry;
    this.broadcastStatus();
    void this.run(entry).finally(() => this.runSoon());
  };

  private async run(entry: QueueEntry): Promise<void> {
    this.interruptRequested = false;
    const execution = await executePrompt(entry, {
      ...this.settings,
      cache: this.cache,
      takeInterrupt: () => {
        const taken = this.interruptRequested;
        this.interruptRequested = false;
        return taken;
      },
      mayStart: async (id) => {
        while (this.holdNode === id && !this.interruptRequested && !this.settings.isGone()) {
          await new Promise<void>((resolve) => this.held.push(resolve));
        }
      },
      nodeStarted: (id) => (this.runningNode = id),
    });
    if (!execution) return;
    this.history.set(entry.promptId, historyEntry(entry, execution));
    this.running = undefined;
    this.runningNode = undefined;
    this.broadcastStatus();
    const client = clientOf(entry);
    if (client !== undefined) {
      this.settings.sockets.sendJson(client, 'executing', {
        node: null,
        prompt_id: entry.promptId,
      });
    }
    this.settings.events.emit('done', { prompt_id: entry.promptId, status: execution.status });
  }
}

function historyEntry(entry: QueueEntry, { status, outputs, messages }: Execution): HistoryEntry {
  return {
    prompt: queueItem(entry),
    outputs,
    status: {
      status_str: status === 'success' ? 'success' : 'error',
      completed: status === 'success',
      messages,
    },
    meta: Object.fromEntries(
      Object.keys(outputs).map((id) => [
        id,
        { node_id: id, display_node: id, parent_node: null, real_node_id: id },
      ]),
    ),
  };
}
