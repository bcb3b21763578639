import { WEBHOOK_EVENT_TYPES, TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import type { WebhookCreated, WebhookEventType, WebhookScope } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Dialog } from '../../components/gallery/dialog';
import { createWebhook } from '../../lib/api/webhooks';
import { webhooksKey } from './webhooks-query';

/** A new endpoint: its URL, the events it hears (all ticked at first), active or paused. */
export function CreateEndpointDialog({
  scope,
  onClose,
  onCreated,
}: {
  scope: WebhookScope;
  onClose: () => void;
  onCreated: (created: WebhookCreated) => void;
}) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [active, setActive] = useState(true);
  const create = useMutation({
    mutationFn: () => createWebhook({ url, events, active, scope }),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: webhooksKey(scope) });
      onCreated(created);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((now) => (on ? [...now, type] : now.filter((t) => t !== type)));

  return (
    <Dialog title={T.add} onClose={onClose}>
      <form className="webhooks-form" onSubmit={submit}>
        <label className="webhooks-field">
          <span>{T.urlLabel}</span>
          <input
            type="url"
            required
            value={url}
            placeholder="https://"
            onChange={(event) => setUrl(event.target.value)}
          />
        </label>
        <fieldset className="webhooks-events">
          <legend>{T.eventsLabel}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              {T.events[type]}
            </label>
          ))}
        </fieldset>
        <label>
          <input
            type="checkbox"
            checked={active}
            onChange={(event) => setActive(event.target.checked)}
          />
          {T.activeLabel}
        </label>
        {create.isError && (
          <p className="webhooks-alert" role="alert">
            {create.error.message}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {T.cancel}
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={create.isPending || events.length === 0}
          >
            {create.isPending ? T.working : T.create}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A signing secret, shown this once: a new endpoint's, or (with its own title and note) a rotated one. */
export function SecretDialog({
  secret,
  onClose,
  title,
  note,
}: {
  secret: string;
  onClose: () => void;
  title?: string;
  note?: string;
}) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title={title ?? T.secretTitle} onClose={onClose}>
      <p className="screen-text">{note ?? T.secretNote}</p>
      <output className="webhooks-secret" aria-label={title ?? T.secretTitle}>
        {secret}
      </output>
      <div className="dialog-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? T.copied : T.copy}
        </button>
        <button type="button" className="button button-primary" onClick={onClose}>
          {T.close}
        </button>
      </div>
    </Dialog>
  );
}
