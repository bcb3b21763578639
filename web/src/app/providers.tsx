import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MessagingProvider } from '../lib/messaging';
import { useRequestClient } from '../lib/mqtt';

/** The page's one QueryClient. */
const queryClient = new QueryClient();

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectionMessaging>{children}</ConnectionMessaging>
    </QueryClientProvider>
  );
}

/**
 * Hands on the request client that lib/mqtt.ts keeps with its one client. It only reads: the
 * client is still created by start-up (or sign-in), after the title, theme and broker address.
 */
function ConnectionMessaging({ children }: { children: ReactNode }) {
  return <MessagingProvider client={useRequestClient()}>{children}</MessagingProvider>;
}
