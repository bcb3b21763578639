import { randomUUID } from 'node:crypto';
import { IMAGE_PAGE_SIZE, userQueryTopics } from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';

/** Long enough for a login queued behind many others (see connect). */
const CONNECT_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** More pages than any benchmark seeds: past it, paging is not ending. */
const MAX_PAGES = 10_000;

type Body = Record<string, unknown>;

/**
 * A browser's side of the protocol for benchmarks: the same steps as the server's TestClient
 * (random transactionid, QoS 0 publish, JSON answer matched by transactionid), without keeping
 * every message, and able to pick its loopback source address (the server's limits are per
 * address, as people on many machines would come).
 */
export class BenchClient {
  /** Size in bytes of the last answer received, as it travelled. */
  lastAnswerBytes = 0;
  /** HD status messages of this user that said 'error' (the load run counts them). */
  readonly hdErrors: string[] = [];
  private readonly waiters = new Map<string, (body: Body) => void>();

  private constructor(
    private readonly mqtt: MqttClient,
    readonly username: string,
  ) {
    mqtt.on('message', (topic, payload) => {
      let body: Body;
      try {
        body = JSON.parse(payload.toString('utf8')) as Body;
      } catch {
        return;
      }
      if (topic.startsWith('query/status-generate-image/') && body.status === 'error')
        this.hdErrors.push(JSON.stringify(body));
      this.lastAnswerBytes = payload.length;
      const id = typeof body.transactionid === 'string' ? body.transactionid : '';
      const waiter = this.waiters.get(id);
      this.waiters.delete(id);
      waiter?.(body);
    });
  }

  /**
   * Connects as a browser tab does, without reconnecting, and subscribes; rejects when the broker
   * refuses or does not answer in time. Errors after that are kept in
   * `errors`, never thrown from an event with no listener.
   */
  static async connect(
    url: string,
    username: string,
    password: string,
    localAddress = '127.0.0.1',
  ): Promise<BenchClient> {
    const client = mqtt.connect(url, {
      username,
      password,
      clean: true,
      reconnectPeriod: 0,
      // Not the browser's 4 s: a tab that times out tries again, and 50 logins at once queue
      // behind the server's password hashing. Logins are reconnect-wave.ts' measure, not this.
      connectTimeout: CONNECT_TIMEOUT_MS,
      wsOptions: { localAddress },
    });
    const errors: string[] = [];
    client.on('error', (err) => errors.push(err.message));
    try {
      await new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', reject);
        client.once('close', () => reject(new Error('connection closed before CONNACK')));
      });
      await client.subscribeAsync(userQueryTopics(username), { qos: 0 });
    } catch (err) {
      client.end(true);
      throw err;
    }
    const connected = new BenchClient(client, username);
    connected.errors = errors;
    return connected;
  }

  /** Connection errors after the connect (a refusal, a closed socket), for the run to count. */
  errors: string[] = [];

  /** Publishes `command/<action>/user/<user>` and resolves with the matching answer's body. */
  /** The browser's way through the LD list: pages of 100 until a page has fewer than 100 items. */
  async pageThroughLd(): Promise<{ ms: number; filenames: string[] }> {
    const filenames: string[] = [];
    const start = performance.now();
    for (let page = 1; ; page++) {
      const body = await this.request('list-low-definition', {
        page,
        size: IMAGE_PAGE_SIZE,
        filters: { tags: [] },
      });
      if (body.success !== true || !Array.isArray(body.images))
        throw new Error(`list-low-definition failed: ${JSON.stringify(body).slice(0, 200)}`);
      for (const item of body.images as { filename: string }[]) filenames.push(item.filename);
      if (body.images.length < IMAGE_PAGE_SIZE) break;
      if (page > MAX_PAGES) throw new Error('paging does not end');
    }
    return { ms: performance.now() - start, filenames };
  }

  async request(action: string, fields: Body = {}): Promise<Body> {
    const transactionid = randomUUID();
    const answer = new Promise<Body>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(transactionid);
        reject(new Error(`no answer to ${action} within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.waiters.set(transactionid, (body) => {
        clearTimeout(timer);
        resolve(body);
      });
    });
    const payload = JSON.stringify({ transactionid, user: this.username, ...fields });
    await this.mqtt.publishAsync(`command/${action}/user/${this.username}`, payload, { qos: 0 });
    return answer;
  }

  /** A fire-and-forget command (the HD order, SPEC §7): published, nothing awaited. */
  async publish(action: string, payload: Body): Promise<void> {
    await this.mqtt.publishAsync(
      `command/${action}/user/${this.username}`,
      JSON.stringify(payload),
      { qos: 0 },
    );
  }

  async close(): Promise<void> {
    await this.mqtt.endAsync(true);
  }
}
