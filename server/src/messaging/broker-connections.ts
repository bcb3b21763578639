import type { MqttClient } from 'mqtt';

/** Mosquitto's count of connected clients, published under $SYS every `sys_interval` (10 s). */
export const BROKER_CONNECTIONS_TOPIC = '$SYS/broker/clients/connected';

/**
 * Follows an external broker's own count of connected clients, so the connections gauge is not
 * left to the embedded broker alone. `onCount` gets each published count; a broker that does
 * not publish it (or an ACL that refuses it) simply never calls it.
 */
export async function followBrokerConnections(
  client: MqttClient,
  onCount: (connections: number) => void,
): Promise<void> {
  client.on('message', (topic, payload) => {
    if (topic !== BROKER_CONNECTIONS_TOPIC) return;
    const count = Number(payload.toString());
    if (Number.isInteger(count) && count >= 0) onCount(count);
  });
  await client.subscribeAsync(BROKER_CONNECTIONS_TOPIC, { qos: 0 });
}
