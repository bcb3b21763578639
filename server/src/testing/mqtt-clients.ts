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

/** Collects what a client receives; `settle` waits long enough for a stray delivery to show up. */
export function inbox(client: MqttClient) {
  const received: Message[] = [];
  client.on('message', (topic, payload) => received.push({ topic, payload: payload.toString() }));
  return {
    received,
    next: () =>
      new Promise<Message>((resolve) =>
        client.once('message', (topic, payload) => resolve({ topic, payload: payload.toString() })),
      ),
  };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** The SUBACK return codes, one per filter (128 = refused); mqtt.js turns any 128 into an error. */
export function subackCodes(client: MqttClient, filters: string[]): Promise<number[]> {
  return new Promise((resolve) =>
    client.subscribe(filters, (_err, _granted, packet) =>
      // MQTT 3.1.1: plain return codes (the objects of the type are MQTT 5's).
      resolve((packet?.granted ?? []) as number[]),
    ),
  );
}
