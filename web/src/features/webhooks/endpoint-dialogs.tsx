import { WEBHOOK_EVENT_TYPES, TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import type { WebhookCreated, WebhookEventType, WebhookScope } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { DialogFooter } from '../../components/dialog-footer';
import { Dialog } from '../../components/gallery/dialog';
import { DoneFooter, ShownOnce } from '../../components/shown-once';
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
        <DialogFooter
          error={create.isError ? create.error.message : null}
          pending={create.isPending}
          action={T.create}
          disabled={events.length === 0}
          onCancel={onClose}
        />
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
  return (
    <Dialog title={title ?? T.secretTitle} onClose={onClose}>
      <p className="screen-text">{note ?? T.secretNote}</p>
      <ShownOnce value={secret} label={title ?? T.secretTitle} />
      <DoneFooter onClose={onClose} />
    </Dialog>
  );
}
