// The cluster test's users and helpers (e2e/cluster.test.ts): one user in their own browser,
// speaking HTTP to one server and MQTT to the broker, and the waits the test needs.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  API_ROUTES,
  buildHdCommand,
  commandTopic,
  userQueryTopics,
  type CommandAction,
} from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { waitForPreview } from '../../server/src/testing/http.js';

const HD_SIZE = '30x30';
/** Bounds of the waits; the figures the test prints at the end say how long things took. */
const PREVIEW_TIMEOUT_MS = 180_000;
const ANSWER_TIMEOUT_MS = 20_000;

export interface Received {
  topic: string;
  body: Record<string, unknown>;
}

/** One user in their own browser: an HTTP session on one server and an MQTT connection. */
export class ClusterUser {
  readonly password = randomBytes(12).toString('base64url');
  readonly received: Received[] = [];
  readonly sentTransactions = new Set<string>();
  readonly hdOrders = new Set<string>();
  cookie = '';
  private client?: MqttClient;
  private protocolVersion: 4 | 5 = 5;
  private readonly waiters = new Map<string, (message: Received) => void>();
  private readonly statusWatchers = new Set<(body: Record<string, unknown>) => void>();

  /** `nextJobEnd`: resolves when some job of the cluster ended (see followJobEnds). */
  constructor(
    readonly username: string,
    readonly serverUrl: string,
    private readonly nextJobEnd: () => Promise<void>,
  ) {}

  async signIn(): Promise<void> {
    const res = await fetch(`${this.serverUrl}${API_ROUTES.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: this.username, password: this.password }),
    });
    if (res.status !== 200) throw new Error(`login of ${this.username}: ${res.status}`);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }

  /** As the web app: the broker's address and MQTT version from the server, then CONNECT. */
  async connect(): Promise<string> {
    const broker = (await (await fetch(`${this.serverUrl}${API_ROUTES.brokerUrl}`)).json()) as {
      url: string;
      protocolVersion?: 4 | 5;
    };
    this.protocolVersion = broker.protocolVersion ?? 4;
    const client = await mqtt.connectAsync(broker.url, {
      username: this.username,
      password: this.password,
      clientId: `tessera-${randomUUID()}`,
      clean: true,
      connectTimeout: 4000,
      protocolVersion: this.protocolVersion,
    });
    client.on('message', (topic, payload) => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(payload.toString()) as Record<string, unknown>;
      } catch {
        body = { unparsed: payload.toString() };
      }
      const message = { topic, body };
      this.received.push(message);
      const id = typeof body.transactionid === 'string' ? body.transactionid : '';
      this.waiters.get(id)?.(message);
      this.waiters.delete(id);
      if (topic === `query/status-generate-image/user/${this.username}`) {
        for (const watcher of this.statusWatchers) watcher(body);
      }
    });
    await client.subscribeAsync(userQueryTopics(this.username));
    this.client = client;
    return broker.url;
  }

  async request(
    action: Exclude<CommandAction, 'generate-image'>,
    fields: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const transactionid = randomUUID();
    this.sentTransactions.add(transactionid);
    const answer = new Promise<Received>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(transactionid);
        reject(new Error(`${this.username}: no answer to ${action}`));
      }, ANSWER_TIMEOUT_MS);
      this.waiters.set(transactionid, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
    await this.publish(action, { transactionid, user: this.username, ...fields });
    const { body } = await answer;
    if (body.success !== true) throw new Error(`${this.username} ${action}: ${String(body.error)}`);
    return body;
  }

  async publish(action: CommandAction, payload: Record<string, unknown>): Promise<void> {
    if (!this.client) throw new Error('not connected');
    await this.client.publishAsync(commandTopic(action, this.username), JSON.stringify(payload), {
      qos: 0,
      ...(this.protocolVersion === 5 ? { properties: { payloadFormatIndicator: true } } : {}),
    });
  }

  /** Posts a preview (SPEC §7's multipart form) and reads its status after each job's end. */
  async generatePreview(reference: Buffer): Promise<string> {
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(reference)], { type: 'image/png' }),
      'reference.png',
    );
    const fields: Record<string, string> = {
      id: randomUUID(),
      user: this.username,
      image: 'reference.png',
      cliptextencode_585: `stone floor of ${this.username}`,
      cliptextencode_716: 'blurry',
      ipadapter_weight: '0.9',
      style: '0',
      ksampler_cfg: '3.5',
      ksampler_denoise: '1',
      use_fixed_seed: 'True',
      latent_width: '1024',
      latent_height: '1024',
      Kseed: '10',
      seamless: 'disable',
      circularVAE: 'disable',
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const posted = await fetch(`${this.serverUrl}${API_ROUTES.generatePreview}`, {
      method: 'POST',
      headers: { cookie: this.cookie },
      body: form,
    });
    if (posted.status >= 300) {
      throw new Error(`${this.username}: preview refused ${posted.status} ${await posted.text()}`);
    }
    const done = await waitForPreview(
      this.serverUrl,
      this.cookie,
      PREVIEW_TIMEOUT_MS,
      this.nextJobEnd,
    );
    if (done.status !== 'finished' || !done.output_image) {
      throw new Error(`${this.username}: preview failed: ${done.seen.join(', ')}`);
    }
    return done.output_image;
  }

  /** The HD order as the Image Details modal sends it: fire and forget. */
  async orderHd(image: string, metadata: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    this.hdOrders.add(id);
    await this.publish(
      'generate-image',
      buildHdCommand({ id, user: this.username, image, metadata, sizeLabel: HD_SIZE }),
    );
    return id;
  }

  /** Every HD status message about one order, in arrival order. */
  hdStatuses(id: string): Record<string, unknown>[] {
    return this.received
      .filter((m) => m.topic === `query/status-generate-image/user/${this.username}`)
      .map((m) => m.body)
      .filter((body) => body.id === id);
  }

  /**
   * The first HD status of order `id` (received already, or later) that `accept` takes; rejects
   * on an 'error' status, which ends the order. Bound it with `within`.
   */
  hdStatus(id: string, accept: (status: string) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const watcher = (body: Record<string, unknown>) => {
        if (body.id !== id) return;
        if (body.status === 'error') {
          this.statusWatchers.delete(watcher);
          reject(new Error(`${this.username}: HD order failed: ${JSON.stringify(body)}`));
        } else if (accept(String(body.status))) {
          this.statusWatchers.delete(watcher);
          resolve(body);
        }
      };
      this.statusWatchers.add(watcher);
      for (const body of this.hdStatuses(id)) watcher(body);
    });
  }

  async close(): Promise<void> {
    await this.client?.endAsync(true);
  }
}

/** Rejects when `promise` has not settled within `timeoutMs`. */
export async function within<T>(what: string, timeoutMs: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work` over `items`, `width` at a time. */
export async function inParallel<T, R>(
  items: T[],
  width: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: width }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** The object keys s3rver holds (its files are `<bucket>/<key>._S3rver_object`). */
export function storedKeys(s3Dir: string): string[] {
  const keys: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('._S3rver_object')) {
        keys.push(path.relative(s3Dir, full).slice(0, -'._S3rver_object'.length));
      }
    }
  };
  if (fs.existsSync(s3Dir)) walk(s3Dir);
  return keys;
}

/** The visible files of one user's area among the keys (hidden names start with '.'). */
export function filesOf(keys: string[], user: string, area: string): string[] {
  const pattern = new RegExp(`(^|/)${user}/${area}/([^/.][^/]*)$`);
  return keys.flatMap((key) => pattern.exec(key)?.[2] ?? []);
}
