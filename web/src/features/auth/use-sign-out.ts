import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CONFIG_QUERY_SCOPE } from '../../lib/config-queries';
import { endMessaging } from '../../lib/mqtt';
import { clearCredentials } from './credentials';
import { logout } from './login-request';

/**
 * Sign out: POST /api/logout, clear the stored credentials, end the messaging client, forget the
 * user's cached data (the start-up answers stay) and go to the Login screen.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearCredentials();
      endMessaging();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CONFIG_QUERY_SCOPE });
      void navigate('/');
    },
  });
}
