/**
 * The broker's settings (MQTT_*, PUBLIC_MQTT_*): their variables, checks and defaults, which
 * config.ts composes with the other parts': an external broker and its service principal, or the
 * embedded broker and its limits.
 */
import type { MqttProtocolVersion } from '@tessera/contract';
import { z } from 'zod';
import { wholeNumber, type EnvProblem } from '../runtime/env-schema.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './limits.js';

const mqttUrl = z
  .url({
    protocol: /^(mqtts?|wss?)$/,
    error: 'must be a URL starting with mqtt://, mqtts://, ws:// or wss://',
  })
  .optional();

const brokerEnvSchema = z.object({
  MQTT_URL: mqttUrl,
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  PUBLIC_MQTT_URL: z
    .url({ protocol: /^wss?$/, error: 'must be a URL starting with ws:// or wss://' })
    .optional(),
  PUBLIC_MQTT_PROTOCOL_VERSION: z
    .enum(['4', '5'], { error: 'must be 4 (MQTT 3.1.1) or 5 (MQTT 5)' })
    .transform((value): MqttProtocolVersion => (value === '5' ? 5 : 4))
    .optional(),
  MQTT_USER_PROVISIONING: z
    .enum(['dynamic-security', 'none'], {
      error: "must be 'dynamic-security' (Mosquitto's plugin) or 'none' (you provision)",
    })
    .default('dynamic-security'),
  MQTT_PUBLISH_RATE: wholeNumber(1, 10_000, DEFAULT_BROKER_LIMITS.publishPerSecond),
  MQTT_PUBLISH_BURST: wholeNumber(1, 100_000, DEFAULT_BROKER_LIMITS.publishBurst),
  MQTT_MAX_CONNECTIONS_PER_USER: wholeNumber(1, 10_000, DEFAULT_BROKER_LIMITS.connectionsPerUser),
  MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS: wholeNumber(
    1,
    100_000,
    DEFAULT_BROKER_LIMITS.unauthenticatedPerAddress,
  ),
  MQTT_CONNECT_TIMEOUT_MS: wholeNumber(500, 120_000, DEFAULT_BROKER_LIMITS.connectTimeoutMs),
});

/** The broker's environment variables, as config.ts reads them. */
export const brokerEnv = brokerEnvSchema.shape;
type BrokerEnv = z.output<typeof brokerEnvSchema>;

/** What the variables' own schemas cannot see: what an external broker needs, or the embedded one allows. */
export function checkBrokerEnv(env: BrokerEnv, problem: EnvProblem): void {
  if (!env.MQTT_URL) {
    if (env.PUBLIC_MQTT_PROTOCOL_VERSION === 5) {
      problem(
        'PUBLIC_MQTT_PROTOCOL_VERSION',
        'cannot be 5 without MQTT_URL: the embedded broker speaks MQTT 3.1.1 only',
      );
    }
    return;
  }
  if (!env.MQTT_USERNAME || !env.MQTT_PASSWORD) {
    problem(
      'MQTT_USERNAME',
      'MQTT_USERNAME and MQTT_PASSWORD (the service principal) are required with MQTT_URL',
    );
  }
  if (!env.PUBLIC_MQTT_URL && !/^wss?:/.test(env.MQTT_URL)) {
    problem(
      'PUBLIC_MQTT_URL',
      'is required when MQTT_URL is not a ws:// or wss:// address browsers can reach',
    );
  }
}

/** An external broker (MQTT_URL) and the service principal's login. */
export interface ExternalBrokerSettings {
  url: string;
  username: string;
  password: string;
  /** Its address as browsers reach it: PUBLIC_MQTT_URL, else MQTT_URL. */
  publicUrl: string;
  /**
   * The MQTT version browsers speak to it: 5 (Mosquitto 2, the broker deploy/ ships, speaks it)
   * unless PUBLIC_MQTT_PROTOCOL_VERSION says 4.
   */
  publicProtocolVersion: MqttProtocolVersion;
  /** How users' logins reach the broker: Mosquitto's dynamic-security plugin, or by hand. */
  userProvisioning: 'dynamic-security' | 'none';
}

export interface BrokerSettings {
  /**
   * The embedded broker's address as browsers reach it (PUBLIC_MQTT_URL), when something in
   * front serves it elsewhere; unset: PUBLIC_URL's host at /mqtt, or the request's Host.
   */
  embeddedBrokerPublicUrl?: string;
  /** The embedded broker's per-connection, per-user and per-address limits. */
  brokerLimits: BrokerLimits;
  /** Unset: the embedded broker. Set: an external broker and the service principal's login. */
  externalBroker?: ExternalBrokerSettings;
}

export function brokerSettings(env: BrokerEnv): BrokerSettings {
  return {
    ...(!env.MQTT_URL && env.PUBLIC_MQTT_URL
      ? { embeddedBrokerPublicUrl: env.PUBLIC_MQTT_URL }
      : {}),
    brokerLimits: {
      publishPerSecond: env.MQTT_PUBLISH_RATE,
      publishBurst: env.MQTT_PUBLISH_BURST,
      connectionsPerUser: env.MQTT_MAX_CONNECTIONS_PER_USER,
      unauthenticatedPerAddress: env.MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS,
      connectTimeoutMs: env.MQTT_CONNECT_TIMEOUT_MS,
    },
    ...(env.MQTT_URL && env.MQTT_USERNAME && env.MQTT_PASSWORD
      ? {
          externalBroker: {
            url: env.MQTT_URL,
            username: env.MQTT_USERNAME,
            password: env.MQTT_PASSWORD,
            publicUrl: env.PUBLIC_MQTT_URL ?? env.MQTT_URL,
            publicProtocolVersion: env.PUBLIC_MQTT_PROTOCOL_VERSION ?? 5,
            userProvisioning: env.MQTT_USER_PROVISIONING,
          },
        }
      : {}),
  };
}
