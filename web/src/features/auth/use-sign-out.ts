import { useMutation } from '@tanstack/react-query';
import { logout } from '../../lib/api/session';
import { useEndSession } from './use-end-session';

/**
 * Sign out: POST /api/logout, then end the session on this side whatever the answer. A single
 * sign-on session's provider may end its own session too (RP-initiated logout): the browser then
 * goes to its end-session page, which sends it back to the login page (issue 30, part 4).
 */
export function useSignOut() {
  const endSession = useEndSession();
  return useMutation({
    mutationFn: logout,
    onSettled: (providerLogoutUrl) => {
      endSession();
      if (providerLogoutUrl) window.location.assign(providerLogoutUrl);
    },
  });
}
