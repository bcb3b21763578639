import { queryOptions } from '@tanstack/react-query';
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
