import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import type { Logger } from 'pino';

export interface BrokerLogin {
  url: string;
  username: string;
  password: string;
  /**
   * The embedded broker's in-process link (`EmbeddedBroker.openInProcess`): when set, the
   * service speaks MQTT over it instead of the url's WebSocket. A list page of 100 images is
   * ~80 kB; over loopback it was framed, masked, sent, read and unmasked once more before the
   * broker passed it on (issue 28, part 2).
   */
  inProcess?: () => Duplex;
}

/**
 * The messaging service's connection to the broker, as the service principal. The same code
 * reaches the embedded broker (over loopback) or an external one (MQTT_URL).
 */
export async function connectServiceClient(login: BrokerLogin, log: Logger): Promise<MqttClient> {
  const options: IClientOptions = {
    clientId: serviceClientId(),
    username: login.username,
    password: login.password,
    clean: true,
    connectTimeout: 10_000,
    reconnectPeriod: 1000,
  };
  const client = login.inProcess
    ? await connectInProcess(login.inProcess, options)
    : await mqtt.connectAsync(login.url, options);
  client.on('error', (err) => log.warn({ err: err.message }, 'messaging connection error'));
  client.on('reconnect', () => log.info('messaging reconnecting'));
  // An operator sees the broker's outage end, not only its start (issue 23).
  let lost = false;
  client.on('close', () => {
    if (!lost) log.warn('messaging connection to the broker lost: reconnecting');
    lost = true;
  });
  client.on('connect', () => {
    if (lost) log.warn('messaging connection to the broker back');
    lost = false;
  });
  return client;
}

async function connectInProcess(open: () => Duplex, options: IClientOptions): Promise<MqttClient> {
  const client = new MqttClient(open, { ...options, protocolVersion: 4 });
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      client.end(true);
      reject(err);
    };
    client.once('connect', () => {
      client.off('error', failed);
      resolve();
    });
    client.once('error', failed);
  });
  return client;
}

/**
 * 128 random bits: a client id nobody can guess, so no one can take the service's session over
 * on a broker that allows takeovers (Mosquitto), nor block it by holding the id first.
 */
export function serviceClientId(): string {
  return `tessera-service-${randomBytes(16).toString('hex')}`;
}
