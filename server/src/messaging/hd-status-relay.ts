import type { HdStatusMessage } from '@tessera/contract';
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
