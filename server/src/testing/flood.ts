import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FloodMessage, FloodOrder, FloodOrders, FloodReport } from './flood-sender.js';

export type { FloodOrders, FloodReport };

export interface Flood {
  /**
   * Starts (or resumes) sending (the connections are logged in already); resolves at the first
   * refusal answered after it, when the user's budget is spent and the flood is at its steady state.
   */
  go(): Promise<void>;
  /** Stops sending, keeping the connections. */
  pause(): void;
  /** Resolves when the server has closed every one of the flooder's connections. */
  allClosed: Promise<void>;
  /** Stops sending, ends the connections and the process, and says what they did. */
  stop(): Promise<FloodReport>;
}

/** Logs a flooding user's connections in from a process of its own (testing/flood-sender.ts). */
export async function startFlood(orders: FloodOrders): Promise<Flood> {
  const child = fork(
    fileURLToPath(new URL('./flood-sender.ts', import.meta.url)),
    [JSON.stringify(orders)],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const waiters = new Map<FloodMessage['kind'], (message: FloodMessage) => void>();
  const next = (kind: FloodMessage['kind']) =>
    new Promise<FloodMessage>((resolve) => waiters.set(kind, resolve));
  child.on('message', (message: FloodMessage) => waiters.get(message.kind)?.(message));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = next('ready');
  await Promise.race([
    ready,
    exited.then(() => Promise.reject(new Error('the flood sender ended before it was ready'))),
  ]);
  const allClosed = next('all-closed').then(() => undefined);
  const order = (what: FloodOrder) => child.send(what);
  return {
    go: async () => {
      const refused = next('refused');
      order('go');
      await refused;
    },
    pause: () => order('pause'),
    allClosed,
    async stop() {
      const report = next('report');
      order('stop');
      const { sent, received, closedByServer, seconds } = (await report) as FloodReport;
      await exited;
      return { sent, received, closedByServer, seconds };
    },
  };
}
