import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { fetchSsoMessagingSecret } from '../../lib/api/sso';
import { ssoConfigQuery } from '../../lib/config-queries';
import { connectMessaging } from '../../lib/mqtt';
import { storeCredentials } from './credentials';
import { ReconnectPrompt } from './reconnect-prompt';

/**
 * A tab with the session cookie but no messaging login (just back from the identity provider,
 * or a new tab). A single sign-on session has no password to ask for: its messaging secret is
 * fetched and kept like a sign-in's (issue 30, part 4). A password session asks for the
 * password (ReconnectPrompt), exactly as without single sign-on.
 */
export function SessionReconnect({ username, loading }: { username: string; loading: ReactNode }) {
  const config = useQuery(ssoConfigQuery);
  const enabled = config.data?.enabled === true;
  const secret = useQuery({
    queryKey: ['sso', 'messaging-secret', username],
    queryFn: fetchSsoMessagingSecret,
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: 1,
  });
  const login = secret.data;

  useEffect(() => {
    if (!login) return;
    const credentials = {
      username: login.username,
      password: '',
      messagingSecret: login.messagingSecret,
      // On Mosquitto the session's own login; the topics stay the user's.
      ...(login.messagingUsername !== login.username && {
        messagingUsername: login.messagingUsername,
      }),
    };
    // The screen behind shows as soon as the credentials are stored.
    connectMessaging(credentials);
    storeCredentials(credentials);
  }, [login]);

  if (config.isPending || (enabled && secret.isPending) || login) return loading;
  return <ReconnectPrompt username={username} />;
}
