import { MQTT_CONNECT_TIMEOUT_MS } from '@tessera/contract';
import type { MqttProtocolVersion } from '@tessera/contract';
import type { IClientOptions } from 'mqtt';

/** Where the broker is and which MQTT version it speaks, from GET /api/mosquitto/url. */
export interface BrokerAddress {
  url: string;
  protocolVersion: MqttProtocolVersion;
}

export interface MessagingLogin {
  username: string;
  password: string;
  /** The session's messaging secret (issue 22, part 3): sent instead of the password. */
  messagingSecret?: string;
  /**
   * The MQTT username when it is not `username`: a single sign-on session's own login on
   * Mosquitto (issue 30, part 4). The topics stay `username`'s.
   */
  messagingUsername?: string;
}

function randomClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  // 'tessera_' and 12 hex digits: 20 characters, within the 23 every MQTT 3.1.1 broker accepts.
  return 'tessera_' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The browser's connection (SPEC §7): random client id, clean session, the stored login, connect
 * timeout 4000 ms; keepalive and reconnect period stay mqtt.js's defaults (SPEC §9). The version
 * is the broker's: MQTT 5 on an external Mosquitto, so the payload format indicator of the
 * commands reaches it; MQTT 3.1.1 on the embedded broker, which speaks nothing newer.
 */
export function messagingConnectOptions(
  login: MessagingLogin,
  protocolVersion: MqttProtocolVersion,
): IClientOptions {
  return {
    clientId: randomClientId(),
    clean: true,
    username: login.messagingUsername ?? login.username,
    // The secret is checked without scrypt, so a reconnect wave does not queue behind hashing.
    password: login.messagingSecret ?? login.password,
    connectTimeout: MQTT_CONNECT_TIMEOUT_MS,
    protocolVersion,
    // The request client subscribes on every connect and holds commands back until its SUBACK;
    // mqtt.js's own resubscribe would only send the same SUBSCRIBE a second time.
    resubscribe: false,
  };
}
