import { useSyncExternalStore } from 'react';

/**
 * The session data of SPEC §3: the username and password of the signed-in user, kept in
 * sessionStorage for the messaging login. This module alone knows the storage keys.
 */

export interface Credentials {
  username: string;
  password: string;
}

const USERNAME_KEY = 'tessera.username';
const PASSWORD_KEY = 'tessera.password';

const listeners = new Set<() => void>();
let cached: Credentials | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

/** The stored credentials, or null when none are stored (or storage is unavailable). */
export function readCredentials(): Credentials | null {
  let username: string | null = null;
  let password: string | null = null;
  try {
    username = sessionStorage.getItem(USERNAME_KEY);
    password = sessionStorage.getItem(PASSWORD_KEY);
  } catch {
    return null;
  }
  if (username === null || password === null) return null;
  // The same object while nothing changed, as useSyncExternalStore requires.
  if (cached?.username !== username || cached.password !== password) {
    cached = { username, password };
  }
  return cached;
}

export function storeCredentials(credentials: Credentials): void {
  sessionStorage.setItem(USERNAME_KEY, credentials.username);
  sessionStorage.setItem(PASSWORD_KEY, credentials.password);
  notify();
}

export function clearCredentials(): void {
  sessionStorage.removeItem(USERNAME_KEY);
  sessionStorage.removeItem(PASSWORD_KEY);
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
