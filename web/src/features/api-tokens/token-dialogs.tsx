import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  TEXT_BUNDLES,
  DEFAULT_API_TOKEN_EXPIRY_DAYS,
} from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import type {
  ApiTokenScope,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
} from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DialogFooter } from '../../components/dialog-footer';
import { Dialog } from '../../components/gallery/dialog';
import { DoneFooter, ShownOnce } from '../../components/shown-once';
import { useDialogAction, type Checked } from '../../components/use-dialog-action';
import { createApiToken } from '../../lib/api/api-tokens';
import { API_TOKENS_QUERY_KEY } from './query-key';

const NEVER = 'never';
type Expiry = CreateApiTokenRequest['expires_in_days'];

/** A name, at least one scope and an expiry; the server's refusal shows in the dialog. */
export function CreateTokenDialog({
  onClose,
  onMade,
}: {
  onClose: () => void;
  onMade: (made: CreateApiTokenResponse) => void;
}) {
  const T = useTexts(TEXT_BUNDLES.apiTokens);
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<Expiry>(DEFAULT_API_TOKEN_EXPIRY_DAYS);
  const nameId = useId();
  const expiryId = useId();
  const {
    mutation: create,
    error,
    submit,
  } = useDialogAction(createApiToken, (made) => {
    void queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY });
    onMade(made);
  });

  function toggle(scope: ApiTokenScope, on: boolean) {
    // Kept in the contract's order, whatever the order of the clicks.
    setScopes((now) => API_TOKEN_SCOPES.filter((s) => (s === scope ? on : now.includes(s))));
  }

  const request = (): Checked<CreateApiTokenRequest> =>
    scopes.length === 0
      ? { ok: false, error: T.scopesMissing }
      : { ok: true, value: { name: name.trim(), scopes, expires_in_days: expiry } };

  return (
    <Dialog title={T.createTitle} onClose={onClose} className="tokens-dialog">
      <form className="tokens-form" onSubmit={submit(request)}>
        <div className="field">
          <label className="field-label" htmlFor={nameId}>
            {T.nameLabel}
          </label>
          <input
            id={nameId}
            className="field-input"
            autoComplete="off"
            required
            maxLength={API_TOKEN_NAME_MAX}
            placeholder={T.namePlaceholder}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <fieldset className="tokens-choices">
          <legend className="field-label">{T.scopesLabel}</legend>
          {API_TOKEN_SCOPES.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              {T.scopes[scope]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label className="field-label" htmlFor={expiryId}>
            {T.expiryLabel}
          </label>
          <select
            id={expiryId}
            className="field-input"
            value={expiry === null ? NEVER : String(expiry)}
            onChange={(event) =>
              setExpiry(
                event.target.value === NEVER ? null : (Number(event.target.value) as Expiry),
              )
            }
          >
            {API_TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                {T.expiryDays(days)}
              </option>
            ))}
            <option value={NEVER}>{T.expiryNever}</option>
          </select>
        </div>
        <DialogFooter
          error={error}
          pending={create.isPending}
          action={T.create}
          pendingLabel={T.creating}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/** The new token's secret, this once, with a copy button: closing the dialog forgets it. */
export function SecretShownDialog({
  made,
  onClose,
}: {
  made: CreateApiTokenResponse;
  onClose: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.apiTokens);
  return (
    <Dialog title={T.secretTitle} onClose={onClose} className="tokens-dialog">
      <p>{T.secretNote}</p>
      <ShownOnce value={made.secret} label={T.secretLabel} />
      <DoneFooter onClose={onClose} />
    </Dialog>
  );
}
