import { createContext } from 'react';
import type { ReactNode } from 'react';
import type { RequestClient } from './request-client';

/** undefined: no provider above; null: no signed-in messaging client. */
export const MessagingContext = createContext<RequestClient | null | undefined>(undefined);

/** Gives the components below the request client of the current messaging connection. */
export function MessagingProvider({
  client,
  children,
}: {
  client: RequestClient | null;
  children: ReactNode;
}) {
  return <MessagingContext value={client}>{children}</MessagingContext>;
}
