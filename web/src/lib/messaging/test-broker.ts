// Test helpers: a real Aedes broker over WebSocket, and a stand-in for the server's messaging
// service. Imported by tests only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { COMMAND_SUBSCRIPTION, parseCommandTopic, responseTopic } from '@tessera/contract';
import type { CommandAction } from '@tessera/contract';
import { Aedes } from 'aedes';
import type { Client, Subscription } from 'aedes';
import mqtt from 'mqtt';
import type { IPublishPacket, MqttClient } from 'mqtt';
import { WebSocketServer, createWebSocketStream } from 'ws';

export interface TestBroker {
  readonly aedes: Aedes;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Aedes behind an HTTP server's WebSocket upgrades on 127.0.0.1; port 0 picks a free port. */
export async function startTestBroker(port = 0): Promise<TestBroker> {
  const aedes = await Aedes.createBroker();
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    wss.handleUpgrade(request, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      // A client cut off by a broker restart is expected, not a failure.
      stream.on('error', () => undefined);
      aedes.handle(stream);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: actualPort } = server.address() as AddressInfo;
  return {
    aedes,
    port: actualPort,
    url: `ws://127.0.0.1:${actualPort}/mqtt`,
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** Resolves once the broker has made every one of `topics` for the client `clientId`. */
export function subscriptionsMade(aedes: Aedes, clientId: string, topics: string[]): Promise<void> {
  const missing = new Set(topics);
  return new Promise((resolve) => {
    const onSubscribe = (subscriptions: Subscription[], client: Client) => {
      if (client.id !== clientId) return;
      for (const { topic } of subscriptions) missing.delete(topic);
      if (missing.size > 0) return;
      aedes.off('subscribe', onSubscribe);
      resolve();
    };
    aedes.on('subscribe', onSubscribe);
  });
}

export interface ReceivedCommand {
  action: CommandAction;
  user: string;
  payload: Record<string, unknown>;
  /** The PUBLISH packet as the service received it. */
  packet: IPublishPacket;
}

/** Plays the server's messaging service: receives every command, answers when told to. */
export class FakeMessagingService {
  readonly client: MqttClient;
  readonly #received: ReceivedCommand[] = [];
  readonly #waiters: ((command: ReceivedCommand) => void)[] = [];

  private constructor(client: MqttClient) {
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      const parsed = parseCommandTopic(topic);
      if (parsed === undefined) return;
      const command = {
        ...parsed,
        payload: JSON.parse(payload.toString()) as Record<string, unknown>,
        packet,
      };
      const waiter = this.#waiters.shift();
      if (waiter) waiter(command);
      else this.#received.push(command);
    });
  }

  static async start(url: string): Promise<FakeMessagingService> {
    const client = mqtt.connect(url, { clientId: 'fake-messaging-service', reconnectPeriod: 0 });
    const service = new FakeMessagingService(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await client.subscribeAsync(COMMAND_SUBSCRIPTION);
    return service;
  }

  nextCommand(): Promise<ReceivedCommand> {
    const received = this.#received.shift();
    if (received) return Promise.resolve(received);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async commands(count: number): Promise<ReceivedCommand[]> {
    const commands: ReceivedCommand[] = [];
    while (commands.length < count) commands.push(await this.nextCommand());
    return commands;
  }

  /** Answers `command` on its response topic: the envelope, success true, then `body`. */
  answer(command: ReceivedCommand, body: Record<string, unknown> = {}): Promise<unknown> {
    return this.publish(responseTopic(command.action, command.user), {
      transactionid: command.payload.transactionid,
      user: command.user,
      success: true,
      ...body,
    });
  }

  /** Publishes `message` (JSON unless it is already a string) the way the service does. */
  publish(topic: string, message: unknown): Promise<unknown> {
    const payload = typeof message === 'string' ? message : JSON.stringify(message);
    return this.client.publishAsync(topic, payload, { qos: 0, retain: false });
  }

  close(): Promise<void> {
    return this.client.endAsync(true);
  }
}
