import { useSyncExternalStore } from 'react';

/**
 * The session data of SPEC §3: the username and password of the signed-in user, kept in
 * sessionStorage for the messaging login, and beside them the session's messaging secret when
 * the server gave one (issue 22, part 3): the broker checks it without scrypt, so the tab logs
 * in with it when present. This module alone knows the storage keys.
 */

export interface Credentials {
  username: string;
  password: string;
  messagingSecret?: string;
  /** The MQTT username of a single sign-on session when not `username` (its own, on Mosquitto). */
  messagingUsername?: string;
}

const USERNAME_KEY = 'tessera.username';
const PASSWORD_KEY = 'tessera.password';
const SECRET_KEY = 'tessera.messaging-secret';
const MESSAGING_USERNAME_KEY = 'tessera.messaging-username';

const listeners = new Set<() => void>();
let cached: Credentials | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

/** The stored credentials, or null when none are stored (or storage is unavailable). */
export function readCredentials(): Credentials | null {
  let username: string | null = null;
  let password: string | null = null;
  let secret: string | null = null;
  let messagingUsername: string | null = null;
  try {
    username = sessionStorage.getItem(USERNAME_KEY);
    password = sessionStorage.getItem(PASSWORD_KEY);
    secret = sessionStorage.getItem(SECRET_KEY);
    messagingUsername = sessionStorage.getItem(MESSAGING_USERNAME_KEY);
  } catch {
    return null;
  }
  if (username === null || password === null) return null;
  // The same object while nothing changed, as useSyncExternalStore requires.
  if (
    cached?.username !== username ||
    cached.password !== password ||
    cached.messagingSecret !== (secret ?? undefined) ||
    cached.messagingUsername !== (messagingUsername ?? undefined)
  ) {
    cached = {
      username,
      password,
      ...(secret !== null && { messagingSecret: secret }),
      ...(messagingUsername !== null && { messagingUsername }),
    };
  }
  return cached;
}

export function storeCredentials(credentials: Credentials): void {
  sessionStorage.setItem(USERNAME_KEY, credentials.username);
  sessionStorage.setItem(PASSWORD_KEY, credentials.password);
  if (credentials.messagingSecret === undefined) sessionStorage.removeItem(SECRET_KEY);
  else sessionStorage.setItem(SECRET_KEY, credentials.messagingSecret);
  if (credentials.messagingUsername === undefined)
    sessionStorage.removeItem(MESSAGING_USERNAME_KEY);
  else sessionStorage.setItem(MESSAGING_USERNAME_KEY, credentials.messagingUsername);
  notify();
}

export function clearCredentials(): void {
  sessionStorage.removeItem(USERNAME_KEY);
  sessionStorage.removeItem(PASSWORD_KEY);
  sessionStorage.removeItem(SECRET_KEY);
  sessionStorage.removeItem(MESSAGING_USERNAME_KEY);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored credentials, re-rendering when they are stored or cleared. */
export function useCredentials(): Credentials | null {
  return useSyncExternalStore(subscribe, readCredentials);
}
