import { randomUUID } from 'node:crypto';
import { commandTopic, queryTopic, userQueryTopics, type CommandAction } from '@tessera/contract';
import mqtt, { type MqttClient } from 'mqtt';

export interface Received {
  topic: string;
  body: Record<string, unknown>;
}

/** A browser's side of the protocol, minimal: publish commands and match answers by transactionid. */
export class TestClient {
  readonly received: Received[] = [];
  private readonly waiters = new Map<string, (message: Received) => void>();

  private constructor(
    readonly mqtt: MqttClient,
    readonly username: string,
  ) {
    mqtt.on('message', (topic, payload) => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(payload.toString()) as Record<string, unknown>;
      } catch {
        body = { raw: payload.toString() };
      }
      const message = { topic, body };
      this.received.push(message);
      const id = typeof body.transactionid === 'string' ? body.transactionid : '';
      this.waiters.get(id)?.(message);
      this.waiters.delete(id);
    });
  }

  /**
   * `loginName`: the MQTT username when it is not the user's, as a single sign-on session's own
   * login on Mosquitto; the topics stay `username`'s.
   */
  static async connect(
    url: string,
    username: string,
    password: string,
    extraTopics: string[] = [],
    loginName = username,
  ): Promise<TestClient> {
    const client = await mqtt.connectAsync(url, {
      username: loginName,
      password,
      reconnectPeriod: 0,
      connectTimeout: 4000,
    });
    await client.subscribeAsync([...userQueryTopics(username), ...extraTopics]);
    return new TestClient(client, username);
  }

  /** Sends a command as the browser does and resolves with the answer carrying its transactionid. */
  async request(
    action: CommandAction | string,
    fields: Record<string, unknown> = {},
  ): Promise<Received> {
    const transactionid = randomUUID();
    const answer = this.answerTo(transactionid);
    await this.send(`command/${action}/user/${this.username}`, {
      transactionid,
      user: this.username,
      ...fields,
    });
    return answer;
  }

  /** Shorthand: the answer's body. */
  async call(
    action: CommandAction,
    fields: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    return (await this.request(action, fields)).body;
  }

  /** The image `filename` as the first page (100) of list-low-definition or -high-definition lists it. */
  async listedImage(
    kind: 'ld' | 'hd',
    filename: string,
  ): Promise<{ filename: string; metadata: Record<string, unknown> } | undefined> {
    const action = kind === 'ld' ? 'list-low-definition' : 'list-high-definition';
    const list = await this.call(action, { page: 1, size: 100 });
    return (list.images as { filename: string; metadata: Record<string, unknown> }[]).find(
      (image) => image.filename === filename,
    );
  }

  answerTo(transactionid: string, timeoutMs = 5000): Promise<Received> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(transactionid);
        reject(new Error(`no answer to ${transactionid}`));
      }, timeoutMs);
      this.waiters.set(transactionid, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  /** The first HD status message of order `id`, received already or later. */
  firstHdStatus(id: string, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return this.waitFor(
      `a status of HD order ${id}`,
      () => this.hdStatuses().find((body) => body.id === id),
      timeoutMs,
    );
  }

  /** The bodies of the HD status messages received, in order. */
  hdStatuses(): Record<string, unknown>[] {
    const topic = queryTopic('status-generate-image', this.username);
    return this.received.filter((m) => m.topic === topic).map((m) => m.body);
  }

  /**
   * The first value `read` gives: at once, or after one of the messages received later (each
   * message is the event to look again on). Rejects after `timeoutMs`, naming `what`.
   */
  waitFor<T>(what: string, read: () => T | undefined, timeoutMs = 60_000): Promise<T> {
    return new Promise((resolve, reject) => {
      // Registered after the constructor's listener, so `received` already holds the message.
      const listener = () => {
        const value = read();
        if (value === undefined) return;
        clearTimeout(timer);
        this.mqtt.off('message', listener);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.mqtt.off('message', listener);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      this.mqtt.on('message', listener);
      listener();
    });
  }

  async send(topic: string, payload: unknown): Promise<void> {
    const text =
      typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    await this.mqtt.publishAsync(topic, text, { qos: 0 });
  }

  commandTopic(action: CommandAction): string {
    return commandTopic(action, this.username);
  }

  async close(): Promise<void> {
    await this.mqtt.endAsync(true);
  }
}
