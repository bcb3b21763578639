import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';

export interface BrokerLogin {
  url: string;
  username: string;
  password: string;
}

/**
 * The messaging service's connection to the broker, as the service principal. The same code
 * reaches the embedded broker (over loopback) or an external one (MQTT_URL).
 */
export async function connectServiceClient(login: BrokerLogin, log: Logger): Promise<MqttClient> {
  const client = await mqtt.connectAsync(login.url, {
    clientId: serviceClientId(),
    username: login.username,
    password: login.password,
    clean: true,
    connectTimeout: 10_000,
    reconnectPeriod: 1000,
  });
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

/**
 * 128 random bits: a client id nobody can guess, so no one can take the service's session over
 * on a broker that allows takeovers (Mosquitto), nor block it by holding the id first.
 */
export function serviceClientId(): string {
  return `tessera-service-${randomBytes(16).toString('hex')}`;
}
