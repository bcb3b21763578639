import { queryOptions, useQuery } from '@tanstack/react-query';
import { HttpError } from '../../lib/api/http';
import { fetchSession } from '../../lib/api/session';

/**
 * Read once per page life and kept: sign-in sets it, sign-out removes it, and any answer 401
 * elsewhere has it read again (providers.tsx), which is how an ended session is noticed.
 */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: fetchSession,
  staleTime: Infinity,
  retry: 1,
});

/** Whether `error` is the server saying the session is missing or over. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401;
}

/**
 * Whether the signed-in user is an admin (issue 29): only then do the admin screens and their
 * sidebar link show. False while the session is unknown; the admin API refuses members anyway.
 */
export function useIsAdmin(): boolean {
  return useQuery(sessionQuery).data?.role === 'admin';
}
