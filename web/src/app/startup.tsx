import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { readCredentials } from '../features/auth';
import { brokerQuery, themeQuery, titleQuery } from '../lib/config-queries';
import { startMessaging, useMessagingState } from '../lib/mqtt';
import { applyTheme } from '../lib/theme';

/**
 * The start-up sequence of SPEC §1 (checklist B1–B4): fetch the title, the theme and the broker
 * address; set the document title, the theme's stylesheet and icon; create the messaging client
 * when credentials are stored; only then render `children` (the routes).
 */
export function StartUp({ children }: { children: ReactNode }) {
  const title = useQuery(titleQuery);
  const theme = useQuery(themeQuery);
  const broker = useQuery(brokerQuery);
  const messaging = useMessagingState();

  // One step once all three answers are in, in the order of SPEC §1: the title, the theme, then
  // the messaging client; the routes render right after (when the broker address is set).
  useEffect(() => {
    if (title.data === undefined || theme.data === undefined || broker.data === undefined) {
      return;
    }
    document.title = title.data;
    applyTheme(theme.data);
    startMessaging(broker.data, readCredentials());
  }, [title.data, theme.data, broker.data]);

  const steps = [
    { query: title, what: 'the page title' },
    { query: theme, what: 'the theme' },
    { query: broker, what: 'the messaging address' },
  ];
  const failed = steps.find((step) => step.query.isError);
  const busy = steps.some((step) => step.query.isFetching);

  if (failed && !busy) {
    const retry = () => {
      for (const step of steps) if (step.query.isError) void step.query.refetch();
    };
    return (
      <main className="startup">
        <div className="startup-panel" role="alert">
          <h1 className="startup-title">Tessera could not start</h1>
          <p className="startup-message">
            Loading {failed.what} failed: {failed.query.error?.message ?? 'unknown error.'}
          </p>
          <button type="button" className="button button-primary" onClick={retry}>
            Retry
          </button>
        </div>
      </main>
    );
  }

  if (messaging.broker === null) {
    return <StartUpLoading />;
  }

  return children;
}

export function StartUpLoading() {
  return (
    <main className="startup" aria-busy="true">
      <div className="startup-panel">
        <span className="spinner" aria-hidden="true" />
        <p className="startup-message">Loading…</p>
      </div>
    </main>
  );
}
