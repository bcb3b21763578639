import { SCREEN_PATHS } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { CONFIG_QUERY_SCOPE } from '../../lib/config-queries';
import { endMessaging } from '../../lib/mqtt';
import { clearCredentials } from './credentials';
import { sessionQuery } from './session';

/**
 * Ends the session on this tab's side: clears the stored credentials, ends the messaging
 * client, forgets the user's cached data (the start-up answers stay), notes that there is no
 * session, and shows the Login screen.
 */
export function useEndSession(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearCredentials();
    endMessaging();
    queryClient.removeQueries({
      predicate: (query) =>
        query.queryKey[0] !== CONFIG_QUERY_SCOPE && query.queryKey[0] !== sessionQuery.queryKey[0],
    });
    // Known now, so nothing asks the server again until the next sign-in sets it.
    queryClient.setQueryData(sessionQuery.queryKey, null);
    // Replaced, so that Back does not return to a screen that would only send it here again.
    void navigate(SCREEN_PATHS.login, { replace: true });
  }, [navigate, queryClient]);
}
