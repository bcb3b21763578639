import { useSyncExternalStore } from 'react';

/**
 * The opt-in to browser notifications, kept per browser (not per tab) so every tab of the
 * person agrees, and the browser's own permission beside it.
 */

const STORAGE_KEY = 'tessera.notify-hd';
const listeners = new Set<() => void>();

export type NotificationSetting = 'on' | 'off' | 'blocked' | 'unsupported';

function supported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

function read(): NotificationSetting {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const wanted = localStorage.getItem(STORAGE_KEY) === 'on';
  return wanted && Notification.permission === 'granted' ? 'on' : 'off';
}

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab switching it on or off.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function notificationSetting(): NotificationSetting {
  return read();
}

export function useNotificationSetting(): NotificationSetting {
  return useSyncExternalStore(subscribe, read);
}

/** Switches notifications on (asking the browser's permission the first time) or off. */
export async function setNotifications(on: boolean): Promise<NotificationSetting> {
  if (!supported()) return 'unsupported';
  if (on && Notification.permission === 'default') await Notification.requestPermission();
  localStorage.setItem(STORAGE_KEY, on && Notification.permission === 'granted' ? 'on' : 'off');
  changed();
  return read();
}
