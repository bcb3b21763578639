import type { IClientPublishOptions, MqttClient } from 'mqtt';

/** SPEC §7: QoS 0, not retained, the payload marked as text (sent when MQTT 5 is spoken). */
export function commandPublishOptions(): IClientPublishOptions {
  // A fresh object per publish: mqtt.js may write topic-alias properties into the one it gets.
  return { qos: 0, retain: false, properties: { payloadFormatIndicator: true } };
}

/** Publishes `payload` as JSON; settles when mqtt.js has sent (or queued) it or has failed. */
export function publishJson(client: MqttClient, topic: string, payload: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    client.publish(topic, JSON.stringify(payload), commandPublishOptions(), (error) => {
      if (error) reject(error);
      else resolve();
    });
  });
}
