import {
  MQTT_RESPONSE_TIMEOUT_MS,
  commandTopic,
  queryTopic,
  responseTopic,
  userQueryTopics,
} from '@tessera/contract';
import type { CommandInput, CommandResponse, RequestAction } from '@tessera/contract';
import type { ISubscriptionMap, MqttClient } from 'mqtt';
import { RequestCancelledError } from './errors';
import { toHdStatusEvent } from './hd-status';
import type { HdStatusListener } from './hd-status';
import { readJsonPayload } from './json-payload';
import { PendingRequests } from './pending-requests';
import { publishJson } from './publish';
import { parseCommandResponse, transactionIdOf } from './responses';
import { SubscriptionGate } from './subscription-gate';

/** A command's own fields: the client adds the envelope (transactionid, user). */
export type RequestFields<A extends RequestAction> = Omit<
  CommandInput<A>,
  'transactionid' | 'user'
>;

export interface RequestClient {
  readonly user: string;
  /**
   * Publishes the command, once the broker has acknowledged the subscription its answer arrives
   * on, and resolves with the answer, parsed by the contract. Rejects with
   * CommandFailedError (success false), InvalidResponseError, ResponseTimeoutError, the
   * publish error of mqtt.js, or RequestCancelledError after `dispose`.
   */
  request<A extends RequestAction>(
    action: A,
    fields: RequestFields<A>,
  ): Promise<CommandResponse<A>>;
  /**
   * Publishes the HD command as given (after the SUBACK, as `request`, so that its status
   * messages reach this client); no answer is awaited. Rejects when publishing fails.
   */
  sendHdCommand(payload: CommandInput<'generate-image'>): Promise<void>;
  /** Listens to the HD status messages; returns the function that stops listening. */
  onHdStatus(listener: HdStatusListener): () => void;
  /** Rejects every pending request and detaches from the mqtt client (which it does not end). */
  dispose(): void;
}

export interface RequestClientOptions {
  /** How long a request waits for its answer; SPEC §9 fixes 50000 ms. */
  responseTimeoutMs?: number;
}

/** The request/response layer of SPEC §7 over one connected (or connecting) mqtt.js client. */
export function createRequestClient(
  mqttClient: MqttClient,
  user: string,
  { responseTimeoutMs = MQTT_RESPONSE_TIMEOUT_MS }: RequestClientOptions = {},
): RequestClient {
  const queryTopics = userQueryTopics(user);
  const hdStatusTopic = queryTopic('status-generate-image', user);
  const pending = new PendingRequests(responseTimeoutMs);
  const hdListeners = new Set<HdStatusListener>();
  const gate = new SubscriptionGate();
  let disposed = false;

  // A clean session forgets subscriptions, so every connection (first or reconnect) makes them;
  // commands wait at the gate for the SUBACK, so that no answer comes before its subscription.
  function subscribeQueries(): void {
    gate.shut();
    // `resubscribe: true` sends the SUBSCRIBE even for topics mqtt.js thinks subscribed already
    // (its own resubscribe may have sent them); otherwise it answers at once, with no SUBACK.
    const subscriptions: ISubscriptionMap = Object.assign(
      Object.fromEntries(queryTopics.map((topic) => [topic, { qos: 0 as const }])),
      { resubscribe: true },
    );
    mqttClient.subscribe(subscriptions, (error, _granted, packet) => {
      if (!error) {
        gate.open();
        return;
      }
      // Without a SUBACK the connection was lost: the next connection subscribes again.
      if (packet?.cmd !== 'suback') return;
      // A SUBACK that refuses: no answer can arrive, so waiting commands fail now.
      console.error('Subscribing to the query topics failed:', error);
      gate.refuse(error);
    });
  }

  function onClose(): void {
    // Offline, mqtt.js would queue commands and send them on reconnect, before the new SUBACK.
    gate.shut();
  }

  function onEnd(): void {
    // mqtt.js's own words for a client that was ended (SPEC §8's connection problems).
    gate.refuse(new Error('client disconnecting'));
  }

  /** Publishes once the gate lets it through, unless `stillWanted` says nobody waits any more. */
  async function publishWhenSubscribed(
    topic: string,
    payload: unknown,
    stillWanted: () => boolean,
  ): Promise<void> {
    // A client being ended refuses at once, with mqtt.js's own error.
    if (!mqttClient.disconnecting) await gate.pass();
    if (!stillWanted()) return;
    await publishJson(mqttClient, topic, payload);
  }

  function onMessage(topic: string, payload: Uint8Array): void {
    if (!queryTopics.includes(topic)) return;
    const json = readJsonPayload(topic, payload);
    if (topic === hdStatusTopic) {
      const event = toHdStatusEvent(json);
      for (const listener of hdListeners) {
        // A failing listener must not keep the others, or mqtt.js, from their work.
        try {
          listener(event);
        } catch (error) {
          console.error('An HD status listener failed:', error);
        }
      }
      return;
    }
    if (!json.ok) return;
    const transactionid = transactionIdOf(json.data);
    const waiting = transactionid === undefined ? undefined : pending.take(transactionid, topic);
    if (waiting === undefined) {
      console.warn(`No request waits for this response on ${topic}:`, json.data);
      return;
    }
    waiting.accept(json.data);
  }

  mqttClient.on('connect', subscribeQueries);
  mqttClient.on('close', onClose);
  mqttClient.on('end', onEnd);
  mqttClient.on('message', onMessage);
  if (mqttClient.connected) subscribeQueries();

  return {
    user,

    request(action, fields) {
      if (disposed) return Promise.reject(new RequestCancelledError());
      const transactionid = crypto.randomUUID();
      const command = { transactionid, user, ...fields };
      return new Promise((resolve, reject) => {
        pending.add(transactionid, {
          topic: responseTopic(action, user),
          accept: (data) => {
            try {
              resolve(parseCommandResponse(action, data));
            } catch (error) {
              reject(error as Error);
            }
          },
          reject,
        });
        const waiting = () => pending.has(transactionid);
        publishWhenSubscribed(commandTopic(action, user), command, waiting).catch(
          (error: unknown) => {
            // Undefined when the request already ended: timed out, or cancelled by dispose.
            const request = pending.remove(transactionid);
            if (request === undefined) return;
            console.error(`Publishing the ${action} command failed:`, error);
            request.reject(error as Error);
          },
        );
      });
    },

    async sendHdCommand(payload) {
      if (disposed) throw new RequestCancelledError();
      try {
        await publishWhenSubscribed(commandTopic('generate-image', user), payload, () => !disposed);
      } catch (error) {
        if (!(error instanceof RequestCancelledError)) {
          console.error('Publishing the generate-image command failed:', error);
        }
        throw error;
      }
    },

    onHdStatus(listener) {
      if (disposed) return () => undefined;
      // A wrapper per call, so the same function registered twice is removed once per call.
      const registered: HdStatusListener = (event) => listener(event);
      hdListeners.add(registered);
      return () => {
        hdListeners.delete(registered);
      };
    },

    dispose() {
      if (disposed) return;
      disposed = true;
      mqttClient.off('connect', subscribeQueries);
      mqttClient.off('close', onClose);
      mqttClient.off('end', onEnd);
      mqttClient.off('message', onMessage);
      hdListeners.clear();
      pending.rejectAll(new RequestCancelledError());
      gate.refuse(new RequestCancelledError());
    },
  };
}
