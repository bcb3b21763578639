import { use, useEffect, useEffectEvent } from 'react';
import type { HdStatusListener } from './hd-status';
import { MessagingContext } from './messaging-provider';
import type { RequestClient } from './request-client';

/**
 * The request client for the signed-in user, or null while there is none (signed out). Use it in
 * TanStack Query functions, e.g. `enabled: messaging !== null`.
 */
export function useMessaging(): RequestClient | null {
  const client = use(MessagingContext);
  if (client === undefined) throw new Error('useMessaging needs a MessagingProvider above it');
  return client;
}

/** Calls `listener` with every HD status event while the component is mounted. */
export function useHdStatus(listener: HdStatusListener): void {
  const client = useMessaging();
  // The latest listener is called without subscribing again on every render.
  const onEvent = useEffectEvent(listener);
  useEffect(() => {
    if (client === null) return;
    return client.onHdStatus((event) => onEvent(event));
  }, [client]);
}
