import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { useSyncExternalStore } from 'react';
import { messagingConnectOptions } from './messaging/connect-options';
import { asConnectionProblem } from './messaging/errors';
import type { BrokerAddress, MessagingLogin } from './messaging/connect-options';
import { createRequestClient } from './messaging/request-client';
import type { RequestClient } from './messaging/request-client';

/**
 * The one messaging (MQTT over WebSocket) client of the page. It is created at most once per
 * page life and per login: start-up creates it when credentials are stored, the Login screen when
 * a sign-in succeeds, Sign out ends it. React reads its state with `useMessagingState`.
 * Each client has one request client (lib/messaging) for the login's user, made and disposed
 * with it here, so no render or effect ever creates a second one.
 */

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'error';

export type { BrokerAddress, MessagingLogin };

export interface MessagingState {
  /** The broker from GET /api/mosquitto/url; null until start-up has fetched it. */
  broker: BrokerAddress | null;
  status: ConnectionStatus;
  /** The last connection error, kept until the client connects again. */
  error: string | null;
}

let state: MessagingState = { broker: null, status: 'offline', error: null };
let client: MqttClient | null = null;
let requestClient: RequestClient | null = null;
let login: MessagingLogin | null = null;
const listeners = new Set<() => void>();

function update(change: Partial<MessagingState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function watch(created: MqttClient): void {
  // Events of a client that has since been replaced or ended are ignored.
  const current = () => client === created;
  created.on('connect', () => {
    if (current()) update({ status: 'connected', error: null });
  });
  created.on('reconnect', () => {
    if (current()) update({ status: 'reconnecting' });
  });
  created.on('offline', () => {
    if (current()) update({ status: 'offline' });
  });
  created.on('error', (error) => {
    // SPEC §8's texts for the problems it lists ('keepalive timeout', not 'Keepalive timeout').
    if (current()) update({ status: 'error', error: asConnectionProblem(error).message });
  });
  created.on('close', () => {
    // Between two reconnect attempts the state stays 'reconnecting'; an error stays visible.
    if (current() && !created.reconnecting && state.status !== 'error') {
      update({ status: 'offline' });
    }
  });
  created.on('end', () => {
    if (current()) update({ status: 'offline' });
  });
}

/**
 * Connects with `credentials` unless a client already exists for them (React StrictMode and
 * repeated calls create nothing new). Does nothing before start-up has set the broker address.
 */
export function connectMessaging(credentials: MessagingLogin): MqttClient | null {
  const broker = state.broker;
  if (broker === null) return null;
  if (
    client !== null &&
    login?.username === credentials.username &&
    login.password === credentials.password &&
    login.messagingSecret === credentials.messagingSecret &&
    login.messagingUsername === credentials.messagingUsername
  ) {
    return client;
  }
  requestClient?.dispose();
  if (client !== null) client.end(true);
  login = { ...credentials };
  client = mqtt.connect(broker.url, messagingConnectOptions(credentials, broker.protocolVersion));
  requestClient = createRequestClient(client, credentials.username);
  watch(client);
  update({ status: 'connecting', error: null });
  return client;
}

/** Start-up: remembers the broker, then connects when credentials are stored. */
export function startMessaging(broker: BrokerAddress, credentials: MessagingLogin | null): void {
  // The client is created in the same task, before React renders the routes this unblocks.
  if (state.broker === null) update({ broker });
  if (credentials !== null) connectMessaging(credentials);
}

/** Ends the client (Sign out). A later sign-in creates a new one. */
export function endMessaging(): void {
  const ending = client;
  requestClient?.dispose();
  requestClient = null;
  client = null;
  login = null;
  ending?.end();
  update({ status: 'offline', error: null });
}

/** The current client, or null when none is connected or connecting. */
export function getMessagingClient(): MqttClient | null {
  return client;
}

/** The request client of the current client, or null when there is none. */
export function getRequestClient(): RequestClient | null {
  return requestClient;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): MessagingState {
  return state;
}

/** The messaging state, re-rendering on every change. */
export function useMessagingState(): MessagingState {
  return useSyncExternalStore(subscribe, snapshot);
}

/** The request client of the current connection, re-rendering when it is made or disposed. */
export function useRequestClient(): RequestClient | null {
  return useSyncExternalStore(subscribe, getRequestClient);
}
