import { useMutation } from '@tanstack/react-query';
import { logout } from '../../lib/api/session';
import { useEndSession } from './use-end-session';

/** Sign out: POST /api/logout, then end the session on this side whatever the answer. */
export function useSignOut() {
  const endSession = useEndSession();
  return useMutation({ mutationFn: logout, onSettled: endSession });
}
