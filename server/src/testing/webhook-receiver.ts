import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver took, as it came. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered. */
  answered: number;
  /** When it came, on the receiver's clock (a test's fake one, given to the constructor). */
  at: Date;
}

/**
 * A webhook receiver on loopback for the tests: it answers 200, or 500 while `failWith500` is
 * set, and can go down (the port refuses connections) and come back on the same port. Every
 * request is recorded; `onRequest` hears each as it arrives (tests wait on it, never sleep).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  failWith500 = false;
  private server: http.Server | undefined;
  private port = 0;
  private listeners: ((request: ReceivedWebhook) => void)[] = [];

  constructor(private readonly clock: () => Date = () => new Date()) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Starts (or starts again on the port it had). */
  async up(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const status = this.failWith500 ? 500 : 200;
        const request: ReceivedWebhook = {
          headers: Object.fromEntries(
            Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          answered: status,
          at: this.clock(),
        };
        this.received.push(request);
        res.writeHead(status, { connection: 'close' }).end(status === 200 ? 'ok' : 'down');
        for (const listener of this.listeners) listener(request);
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Goes down: the port refuses connections until `up` again. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves when `count` requests in all have come (at once if they have). */
  until(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = () => {
        if (this.received.length < count) return;
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve();
      };
      this.listeners.push(listener);
    });
  }

  /** The requests answered 200, by webhook-id: how often each was delivered. */
  deliveredCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const request of this.received) {
      if (request.answered !== 200) continue;
      const id = request.headers['webhook-id'] ?? '';
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }
}
