import { formatAdminDate, TEXT_BUNDLES, WEBHOOK_SECRET_GRACE_HOURS } from '@tessera/contract';
import type { WebhookEndpoint, WebhookRotated, WebhookScope } from '@tessera/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogFooter } from '../../components/dialog-footer';
import { Dialog } from '../../components/gallery/dialog';
import { rotateWebhookSecret } from '../../lib/api/webhooks';
import { useLocale, useTexts } from '../../lib/i18n';
import { SecretDialog } from './endpoint-dialogs';
import { webhooksKey } from './webhooks-query';

/**
 * Rotating an endpoint's signing secret: a confirmation saying how long the current secret keeps
 * signing too, then the new secret, shown this once (closing forgets it).
 */
export function RotateSecretDialog({
  endpoint,
  scope,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  scope: WebhookScope;
  onClose: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const locale = useLocale();
  const client = useQueryClient();
  const [rotated, setRotated] = useState<WebhookRotated | null>(null);
  const rotate = useMutation({
    mutationFn: () => rotateWebhookSecret(endpoint.id),
    onSuccess: async (answer) => {
      setRotated(answer);
      await client.invalidateQueries({ queryKey: webhooksKey(scope) });
    },
  });

  if (rotated) {
    const until = rotated.endpoint.previousSecretUntil;
    return (
      <SecretDialog
        secret={rotated.secret}
        title={T.newSecretTitle}
        note={until ? T.rotatedNote(formatAdminDate(until, undefined, locale)) : T.secretNote}
        onClose={onClose}
      />
    );
  }
  return (
    <Dialog title={T.rotateTitle} onClose={onClose}>
      <p className="screen-text">
        <code className="webhooks-url">{endpoint.url}</code>
      </p>
      <p className="screen-text">{T.rotateNote(WEBHOOK_SECRET_GRACE_HOURS)}</p>
      <DialogFooter
        error={rotate.isError ? rotate.error.message : null}
        pending={rotate.isPending}
        action={T.rotate}
        onCancel={onClose}
        onAction={() => rotate.mutate()}
      />
    </Dialog>
  );
}
