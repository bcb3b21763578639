import { randomBytes, randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';

/**
 * Mosquitto's dynamic-security plugin, spoken over MQTT: commands are published as JSON on
 * `$CONTROL/dynamic-security/v1` and answered, in order and in one message per batch, on
 * `.../response`. Only a client with the plugin's admin role may do this (docs/mosquitto.md).
 */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

export class DynsecError extends Error {
  override name = 'DynsecError';
}

interface PendingBatch {
  resolve(responses: DynsecResponse[]): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** Sends batches of dynamic-security commands on a connection and matches the answers. */
export class DynamicSecurity {
  private readonly pending = new Map<string, PendingBatch>();
  private subscribed: Promise<unknown> | undefined;

  constructor(
    private readonly client: MqttClient,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    client.on('message', this.onMessage);
  }

  /** Runs the commands as one batch; the answers in the same order (each may carry `error`). */
  async run(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    if (commands.length === 0) return [];
    // The subscription is made again at every connection (mqtt.js resubscribes a clean session).
    this.subscribed ??= this.client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
    await this.subscribed;
    const batch = randomUUID();
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(batch);
        reject(
          new DynsecError(
            `Mosquitto's dynamic-security plugin did not answer within ${this.timeoutMs} ms ` +
              `(is the plugin loaded, and is ${this.clientName()} its admin?)`,
          ),
        );
      }, this.timeoutMs);
      this.pending.set(batch, { resolve, reject, timer });
    });
    const tagged = commands.map((c, i) => ({ ...c, correlationData: `${batch}:${i}` }));
    try {
      await this.client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: tagged }), {
        qos: 1,
      });
    } catch (err) {
      this.settle(batch)?.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return answered;
  }

  /** Like {@link run}, but fails on the first answer with an error other than `tolerated`. */
  async runChecked(
    commands: DynsecCommand[],
    tolerated: (response: DynsecResponse) => boolean = () => false,
  ): Promise<DynsecResponse[]> {
    const responses = await this.run(commands);
    const failed = responses.find((r) => r.error !== undefined && !tolerated(r));
    if (failed) throw new DynsecError(`dynamic-security ${failed.command}: ${failed.error}`);
    return responses;
  }

  /**
   * Runs commands that change this connection's own login (its roles): Mosquitto closes every
   * connection of a login it changes, this one too, before it answers. Resolves once the
   * connection is back; the caller checks the outcome with a fresh command.
   */
  async runOnOwnLogin(commands: DynsecCommand[]): Promise<void> {
    this.subscribed ??= this.client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
    await this.subscribed;
    const reconnected = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.client.off('connect', onConnect);
        reject(
          new DynsecError(
            `no new connection within ${this.timeoutMs} ms after changing ${this.clientName()}`,
          ),
        );
      }, this.timeoutMs);
      const onConnect = () => {
        clearTimeout(timer);
        resolve();
      };
      this.client.once('close', () => this.client.once('connect', onConnect));
    });
    await this.client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands }), { qos: 1 });
    await reconnected;
    // The subscription of the new connection (mqtt.js resubscribes) must be in place again.
    this.subscribed = this.client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
  }

  /** Fails what is still waiting and closes the connection. */
  async close(): Promise<void> {
    this.client.off('message', this.onMessage);
    for (const batch of [...this.pending.keys()]) {
      this.settle(batch)?.reject(new DynsecError('the dynamic-security connection was closed'));
    }
    await this.client.endAsync();
  }

  private readonly onMessage = (topic: string, payload: Buffer) => {
    if (topic !== DYNSEC_RESPONSE_TOPIC) return;
    let responses: DynsecResponse[];
    try {
      const body = JSON.parse(payload.toString()) as { responses?: DynsecResponse[] };
      responses = Array.isArray(body.responses) ? body.responses : [];
    } catch {
      return;
    }
    const batch = responses[0]?.correlationData?.split(':')[0];
    if (batch) this.settle(batch)?.resolve(responses);
  };

  private settle(batch: string): PendingBatch | undefined {
    const pending = this.pending.get(batch);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(batch);
    return pending;
  }

  private clientName(): string {
    return this.client.options.username ?? 'this login';
  }
}

/**
 * A connection of its own, as the plugin's admin, that connects (and reconnects) in the
 * background: commands wait for it, up to the timeout. Nothing else is sent on it.
 */
export function connectDynamicSecurity(
  login: { url: string; username: string; password: string },
  log?: Logger,
  timeoutMs?: number,
): DynamicSecurity {
  const client = mqtt.connect(login.url, {
    clientId: `tessera-dynsec-${randomBytes(16).toString('hex')}`,
    username: login.username,
    password: login.password,
    clean: true,
    connectTimeout: 10_000,
    reconnectPeriod: 1000,
  });
  client.on('error', (err) => log?.warn({ err: err.message }, 'dynamic-security connection error'));
  return new DynamicSecurity(client, timeoutMs);
}
