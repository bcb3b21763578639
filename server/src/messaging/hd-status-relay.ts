import { queryTopic, type HdStatusMessage } from '@tessera/contract';
import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { HdStatusPublisher } from '../services/hd.js';

/** Where the relay sends: the messaging service, once its broker client is connected. */
export interface HdStatusSink {
  publishHdStatus(username: string, message: HdStatusMessage): void;
}

/**
 * The HD service's status publisher, built with it before the broker is up and connected to
 * the messaging service once it is. Nothing is lost meanwhile: no job runs and no command
 * arrives before messaging starts.
 */
export class HdStatusRelay implements HdStatusPublisher {
  private sink: HdStatusSink | undefined;

  connect(sink: HdStatusSink): void {
    this.sink = sink;
  }

  publish(username: string, message: HdStatusMessage): void {
    this.sink?.publishHdStatus(username, message);
  }
}

/**
 * A worker's sink (ROLE=worker): it answers no commands, but tells each user how the HD jobs it
 * runs go, on the same status topic the messaging service uses, so the user hears it whichever
 * process ran the job.
 */
export function brokerHdStatusSink(client: MqttClient, log: Logger): HdStatusSink {
  return {
    publishHdStatus(username, message) {
      const topic = queryTopic('status-generate-image', username);
      client.publish(topic, JSON.stringify(message), { qos: 0, retain: false }, (err) => {
        if (err) log.warn({ err: err.message, topic }, 'HD status not sent');
      });
    },
  };
}
