import { INTL_LOCALES, TEXT_BUNDLES, formatApiTokenDate } from '@tessera/contract';
import { useLocale, useTexts } from '../../lib/i18n';
import type { ApiToken, CreateApiTokenResponse } from '@tessera/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogFooter } from '../../components/dialog-footer';
import { Dialog } from '../../components/gallery/dialog';
import { fetchApiTokens, revokeApiToken } from '../../lib/api/api-tokens';
import { API_TOKENS_QUERY_KEY } from './query-key';
import { CreateTokenDialog, SecretShownDialog } from './token-dialogs';
import './tokens.css';

type TokenDialog =
  | { kind: 'create' }
  | { kind: 'secret'; made: CreateApiTokenResponse }
  | { kind: 'revoke'; token: ApiToken };

/**
 * Route /account/tokens (issue 30, part 1): the user's API tokens for scripts. A new token's
 * secret is shown once, in a dialog with a copy button; the list never has it.
 */
export function ApiTokensScreen() {
  const T = useTexts(TEXT_BUNDLES.apiTokens);
  const tokens = useQuery({ queryKey: API_TOKENS_QUERY_KEY, queryFn: fetchApiTokens });
  const [dialog, setDialog] = useState<TokenDialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => setDialog(null);

  return (
    <section className="screen tokens" aria-labelledby="api-tokens-title">
      <header className="tokens-header">
        <div>
          <h1 id="api-tokens-title" className="screen-title">
            {T.title}
          </h1>
          <p className="screen-text">{T.intro}</p>
        </div>
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            setNotice(null);
            setDialog({ kind: 'create' });
          }}
        >
          {T.create}
        </button>
      </header>
      {notice !== null && (
        <p className="tokens-notice" role="status">
          {notice}
        </p>
      )}
      {tokens.isError && (
        <p className="alert" role="alert">
          {T.loadError} {tokens.error.message}
        </p>
      )}
      {tokens.data?.length === 0 && <p className="screen-text">{T.empty}</p>}
      {tokens.data && tokens.data.length > 0 && (
        <TokensTable
          tokens={tokens.data}
          readAt={tokens.dataUpdatedAt}
          onRevoke={(token) => {
            setNotice(null);
            setDialog({ kind: 'revoke', token });
          }}
        />
      )}

      {dialog?.kind === 'create' && (
        <CreateTokenDialog onClose={close} onMade={(made) => setDialog({ kind: 'secret', made })} />
      )}
      {dialog?.kind === 'secret' && <SecretShownDialog made={dialog.made} onClose={close} />}
      {dialog?.kind === 'revoke' && (
        <RevokeDialog
          token={dialog.token}
          onClose={close}
          onRevoked={() => {
            setNotice(T.revoked(dialog.token.name));
            close();
          }}
        />
      )}
    </section>
  );
}

/** `readAt`: when the list was read; a token expired by then is marked so. */
function TokensTable({
  tokens,
  readAt,
  onRevoke,
}: {
  tokens: ApiToken[];
  readAt: number;
  onRevoke: (token: ApiToken) => void;
}) {
  const T = useTexts(TEXT_BUNDLES.apiTokens);
  const locale = useLocale();
  return (
    <div className="tokens-table-wrap">
      <table className="tokens-table">
        <thead>
          <tr>
            <th scope="col">{T.columnName}</th>
            <th scope="col">{T.columnScopes}</th>
            <th scope="col">{T.columnCreated}</th>
            <th scope="col">{T.columnLastUsed}</th>
            <th scope="col">{T.columnExpires}</th>
            <th scope="col">
              <span className="tokens-hidden">{T.revoke}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const expired = token.expires_at !== null && Date.parse(token.expires_at) <= readAt;
            return (
              <tr key={token.id}>
                <th scope="row">{token.name}</th>
                <td>{token.scopes.map((scope) => T.scopeNames[scope]).join(', ')}</td>
                <td>{formatApiTokenDate(token.created_at, INTL_LOCALES[locale])}</td>
                <td>
                  {token.last_used_at === null
                    ? T.neverUsed
                    : formatApiTokenDate(token.last_used_at, INTL_LOCALES[locale])}
                </td>
                <td>
                  {token.expires_at === null
                    ? T.neverExpires
                    : formatApiTokenDate(token.expires_at, INTL_LOCALES[locale])}
                  {expired && <span className="tokens-expired"> {T.expired}</span>}
                </td>
                <td>
                  <button
                    type="button"
                    className="button"
                    aria-label={T.revokeLabel(token.name)}
                    onClick={() => onRevoke(token)}
                  >
                    {T.revoke}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RevokeDialog({
  token,
  onClose,
  onRevoked,
}: {
  token: ApiToken;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.apiTokens);
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeApiToken(token.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY });
      onRevoked();
    },
  });
  return (
    <Dialog title={T.revokeTitle(token.name)} onClose={onClose} className="tokens-dialog">
      <p>{T.revokeNote}</p>
      <DialogFooter
        error={revoke.isError ? revoke.error.message : null}
        pending={revoke.isPending}
        action={T.revoke}
        onCancel={onClose}
        onAction={() => revoke.mutate()}
      />
    </Dialog>
  );
}
