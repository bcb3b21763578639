import { formatAdminDate, TEXT_BUNDLES } from '@tessera/contract';
import { useLocale, useTexts } from '../../lib/i18n';
import type { WebhookEndpoint, WebhookScope } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { removeWebhook, sendTestEvent, updateWebhook } from '../../lib/api/webhooks';
import { DeliveriesTable } from './deliveries-table';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { deliveriesKey, webhooksKey } from './webhooks-query';

/**
 * One endpoint: its URL, events and state; pause or resume, a test event, its deliveries, a new
 * signing secret, remove.
 */
export function EndpointCard({
  endpoint,
  scope,
  onNotice,
}: {
  endpoint: WebhookEndpoint;
  scope: WebhookScope;
  onNotice: (text: string) => void;
}) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const locale = useLocale();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [rotating, setRotating] = useState(false);
  const readAgain = () => client.invalidateQueries({ queryKey: webhooksKey(scope) });
  const toggle = useMutation({
    mutationFn: () => updateWebhook(endpoint.id, { active: !endpoint.active }),
    onSuccess: readAgain,
  });
  const test = useMutation({
    mutationFn: () => sendTestEvent(endpoint.id),
    onSuccess: async () => {
      onNotice(T.testQueued);
      setOpen(true);
      await client.invalidateQueries({ queryKey: deliveriesKey(endpoint.id) });
    },
  });
  const remove = useMutation({
    mutationFn: () => removeWebhook(endpoint.id),
    onSuccess: readAgain,
  });
  const failed = toggle.error ?? test.error ?? remove.error;

  return (
    <article className="webhooks-card" aria-label={endpoint.url}>
      <header className="webhooks-card-head">
        <code className="webhooks-url">{endpoint.url}</code>
        <span className={endpoint.active ? 'webhooks-badge' : 'webhooks-badge is-paused'}>
          {endpoint.active ? T.active : T.paused}
        </span>
      </header>
      <p className="webhooks-card-events">
        {endpoint.events.map((type) => T.events[type]).join(' · ')}
      </p>
      {endpoint.previousSecretUntil !== null && (
        <p className="webhooks-card-events">
          {T.previousSecretUntil(formatAdminDate(endpoint.previousSecretUntil, undefined, locale))}
        </p>
      )}
      <div className="webhooks-toolbar">
        <button type="button" className="button" onClick={() => setOpen(!open)}>
          {open ? T.hideDeliveries : T.deliveries}
        </button>
        <button type="button" className="button" onClick={() => test.mutate()}>
          {T.sendTest}
        </button>
        <button type="button" className="button" onClick={() => toggle.mutate()}>
          {endpoint.active ? T.pause : T.resume}
        </button>
        <button type="button" className="button" onClick={() => setRotating(true)}>
          {T.rotateSecret}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            if (window.confirm(T.removeConfirm(endpoint.url))) remove.mutate();
          }}
        >
          {T.remove}
        </button>
      </div>
      {failed && (
        <p className="webhooks-alert" role="alert">
          {failed.message}
        </p>
      )}
      {open && <DeliveriesTable endpointId={endpoint.id} />}
      {rotating && (
        <RotateSecretDialog endpoint={endpoint} scope={scope} onClose={() => setRotating(false)} />
      )}
    </article>
  );
}
