/** MQTT clients for broker tests: connections that a test ends in one go, and what they receive. */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

export interface Message {
  topic: string;
  payload: string;
}

/** Connects clients (no reconnects; a refused login rejects) and ends them all on endAll(). */
export function mqttClients() {
  const clients: MqttClient[] = [];
  const track = (client: MqttClient): MqttClient => {
    clients.push(client);
    return client;
  };
  return {
    connect(
      url: string,
      username: string | undefined,
      password: string | undefined,
      options: IClientOptions = {},
    ): Promise<MqttClient> {
      const client = track(
        mqtt.connect(url, {
          username,
          password,
          reconnectPeriod: 0,
          connectTimeout: 4000,
          clean: true,
          ...options,
        }),
      );
      return new Promise((resolve, reject) => {
        client.once('connect', () => resolve(client));
        client.once('error', reject);
      });
    },
    /** A client connected otherwise, ended with the others. */
    track,
    async endAll(): Promise<void> {
      await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
    },
  };
}

/** Fence markers start so; every inbox leaves them out. */
const FENCE = 'fence\u0000';
let fences = 0;

/**
 * Collects what a client receives. `fence` stands in for a pause before checking that nothing
 * else arrived: a broker writes what it has routed to one subscriber in order, so once a marker
 * published after the messages in question arrives, any of them that was to arrive has.
 */
export function inbox(client: MqttClient) {
  const received: Message[] = [];
  client.on('message', (topic, payload) => {
    const text = payload.toString();
    if (!text.startsWith(FENCE)) received.push({ topic, payload: text });
  });
  return {
    received,
    next: () =>
      new Promise<Message>((resolve) => {
        const onMessage = (topic: string, payload: Buffer) => {
          const text = payload.toString();
          if (text.startsWith(FENCE)) return;
          client.off('message', onMessage);
          resolve({ topic, payload: text });
        };
        client.on('message', onMessage);
      }),
    /** Resolves once `count` messages (fences aside) have arrived, those here already counted. */
    arrived(count: number): Promise<void> {
      return new Promise((resolve) => {
        // Registered after the listener above, so `received` already holds the message.
        const check = () => {
          if (received.length < count) return;
          client.off('message', check);
          resolve();
        };
        client.on('message', check);
        check();
      });
    },
    /**
     * `publisher` publishes a marker on `topic` (one this client subscribes to), after whatever
     * the test needs delivered first has reached the broker; resolves when the marker arrives.
     */
    async fence(publisher: MqttClient, topic: string): Promise<void> {
      const marker = `${FENCE}${++fences}`;
      const arrived = new Promise<void>((resolve) => {
        const onMessage = (t: string, payload: Buffer) => {
          if (t !== topic || payload.toString() !== marker) return;
          client.off('message', onMessage);
          resolve();
        };
        client.on('message', onMessage);
      });
      await publisher.publishAsync(topic, marker);
      await arrived;
    },
  };
}

/** The SUBACK return codes, one per filter (128 = refused); mqtt.js turns any 128 into an error. */
export function subackCodes(client: MqttClient, filters: string[]): Promise<number[]> {
  return new Promise((resolve) =>
    client.subscribe(filters, (_err, _granted, packet) =>
      // MQTT 3.1.1: plain return codes (the objects of the type are MQTT 5's).
      resolve((packet?.granted ?? []) as number[]),
    ),
  );
}
