import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { sessionQuery } from '../features/auth';
import { NotFound } from './not-found';
import { StartUpLoading } from './startup';

/**
 * The admin screens (issue 29) for admins only: anyone else gets the app's unknown-address page,
 * as if they were not there. The role comes with the session; just after sign-in it is read
 * again in the background, so the screens wait for that rather than turn a fresh admin away.
 * The admin API refuses members whatever the web shows.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery);
  const role = session.data?.role;
  if (role === undefined && session.isFetching) return <StartUpLoading />;
  if (role !== 'admin') return <NotFound />;
  return <Suspense fallback={<StartUpLoading />}>{children}</Suspense>;
}
