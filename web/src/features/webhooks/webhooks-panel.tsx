import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import type { WebhookCreated, WebhookScope } from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchWebhooks } from '../../lib/api/webhooks';
import { EndpointCard } from './endpoint-card';
import { CreateEndpointDialog, SecretDialog } from './endpoint-dialogs';
import { webhooksKey } from './webhooks-query';
import './webhooks.css';

/**
 * The endpoints of a scope (the user's own, or the admins' for everyone), each with its actions
 * and deliveries, and the way to add one; a new endpoint's secret is shown once.
 */
export function WebhooksPanel({ scope }: { scope: WebhookScope }) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const endpoints = useQuery({ queryKey: webhooksKey(scope), queryFn: () => fetchWebhooks(scope) });
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <div className="webhooks-panel">
      <div className="webhooks-toolbar">
        <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
          {T.add}
        </button>
      </div>
      {notice !== null && (
        <p className="webhooks-notice" role="status">
          {notice}
        </p>
      )}
      {endpoints.isError && (
        <p className="webhooks-alert" role="alert">
          {T.loadError} {endpoints.error.message}
        </p>
      )}
      {endpoints.data?.length === 0 && <p className="screen-text">{T.empty}</p>}
      <ul className="webhooks-list" aria-label={T.title}>
        {endpoints.data?.map((endpoint) => (
          <li key={endpoint.id}>
            <EndpointCard endpoint={endpoint} scope={scope} onNotice={setNotice} />
          </li>
        ))}
      </ul>
      {adding && (
        <CreateEndpointDialog
          scope={scope}
          onClose={() => setAdding(false)}
          onCreated={(answer) => {
            setAdding(false);
            setCreated(answer);
          }}
        />
      )}
      {created && <SecretDialog secret={created.secret} onClose={() => setCreated(null)} />}
    </div>
  );
}
