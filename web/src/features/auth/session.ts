import { API_ROUTES, sessionResponseSchema } from '@tessera/contract';
import type { SessionResponse } from '@tessera/contract';
import { queryOptions } from '@tanstack/react-query';
import { HttpError, expectAnswer, send } from '../../lib/api/http';

/**
 * Who the session cookie belongs to (GET /api/session), or null without a live session. The
 * cookie is shared by every tab of the browser; the messaging password (credentials.ts) is not.
 */
export async function fetchSession(): Promise<SessionResponse | null> {
  const answer = await send(API_ROUTES.session);
  if (answer.status === 401) return null;
  return expectAnswer(answer, sessionResponseSchema);
}

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
