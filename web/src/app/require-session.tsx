import { TEXT_BUNDLES } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import {
  SessionReconnect,
  clearCredentials,
  sessionQuery,
  useCredentials,
  useEndSession,
} from '../features/auth';
import { useTexts } from '../lib/i18n';
import { endMessaging } from '../lib/mqtt';
import { StartUpLoading } from './startup';

/**
 * Every screen but Login needs a session, and ends up somewhere rather than wait forever:
 * without a live session cookie the tab goes to the Login screen; with one but without this
 * tab's messaging password (a new tab) it asks for the password once (a single sign-on session
 * fetches its messaging secret instead); with both, `children`.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery);
  const credentials = useCredentials();
  const user = session.data?.username;
  // Stored for someone else than the cookie's user (another tab signed in anew): not used.
  const foreign = credentials !== null && user !== undefined && credentials.username !== user;

  useEffect(() => {
    if (!foreign) return;
    clearCredentials();
    endMessaging();
  }, [foreign]);

  if (session.data === undefined) {
    return session.isError ? (
      <SessionCheckFailed message={session.error.message} onRetry={() => void session.refetch()} />
    ) : (
      <StartUpLoading />
    );
  }
  if (session.data === null) return <SignedOut />;
  if (credentials === null || foreign) {
    return <SessionReconnect username={session.data.username} loading={<StartUpLoading />} />;
  }
  return children;
}

/** No live session: end this tab's side of it and go to the Login screen. */
function SignedOut() {
  const endSession = useEndSession();
  useEffect(endSession, [endSession]);
  return <StartUpLoading />;
}

function SessionCheckFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const texts = useTexts(TEXT_BUNDLES.shell);
  return (
    <main className="startup">
      <div className="startup-panel" role="alert">
        <h1 className="startup-title">{texts.sessionCheckFailed}</h1>
        <p className="startup-message">{message}</p>
        <button type="button" className="button button-primary" onClick={onRetry}>
          {texts.retry}
        </button>
      </div>
    </main>
  );
}
