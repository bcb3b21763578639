import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FloodMessage, FloodOrders, FloodReport } from './flood-sender.js';

export type { FloodOrders, FloodReport };

export interface Flood {
  /** Starts sending (the connections are logged in already). */
  go(): void;
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
  return {
    go: () => child.send('go'),
    allClosed,
    async stop() {
      const report = next('report');
      child.send('stop');
      const { sent, received, closedByServer, seconds } = (await report) as FloodReport;
      await exited;
      return { sent, received, closedByServer, seconds };
    },
  };
}
