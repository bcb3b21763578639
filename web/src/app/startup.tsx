import { TEXT_BUNDLES } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { readCredentials } from '../features/auth';
import { brokerQuery, themeQuery, titleQuery } from '../lib/config-queries';
import { startMessaging, useMessagingState } from '../lib/mqtt';
import { applyTheme } from '../lib/theme';
import { useTexts } from '../lib/i18n';

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
  const texts = useTexts(TEXT_BUNDLES.shell);

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
    { query: title, what: texts.startupSteps.title },
    { query: theme, what: texts.startupSteps.theme },
    { query: broker, what: texts.startupSteps.broker },
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
          <h1 className="startup-title">{texts.startupFailedTitle}</h1>
          <p className="startup-message">
            {texts.startupStepFailed(
              failed.what,
              failed.query.error?.message ?? texts.unknownError,
            )}
          </p>
          <button type="button" className="button button-primary" onClick={retry}>
            {texts.retry}
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
  const texts = useTexts(TEXT_BUNDLES.shell);
  return (
    <main className="startup" aria-busy="true">
      <div className="startup-panel">
        <span className="spinner" aria-hidden="true" />
        <p className="startup-message">{texts.loading}</p>
      </div>
    </main>
  );
}
