import type { InputImage } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchInputs } from '../../lib/api/generation';
import { useMessaging } from '../../lib/messaging';

export const INPUTS_QUERY_KEY = ['inputs'] as const;

/** The signed-in user's uploaded references, newest first (GET /api/query/inputs). */
export function useInputs(): { inputs: InputImage[]; isLoading: boolean; isError: boolean } {
  // The answer is the cookie's user's; the key names the user so a new sign-in asks again.
  const user = useMessaging()?.user ?? '';
  const query = useQuery({ queryKey: [...INPUTS_QUERY_KEY, user], queryFn: fetchInputs });
  return { inputs: query.data ?? [], isLoading: query.isLoading, isError: query.isError };
}
