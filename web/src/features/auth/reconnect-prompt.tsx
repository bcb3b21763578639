import { TEXT_BUNDLES } from '@tessera/contract';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { login } from '../../lib/api/session';
import { themeQuery } from '../../lib/config-queries';
import { useTexts } from '../../lib/i18n';
import { connectMessaging } from '../../lib/mqtt';
import { themeAsset } from '../../lib/theme';
import { storeCredentials } from './credentials';
import { useSignOut } from './use-sign-out';
import './login-screen.css';

/**
 * Shown instead of a screen when the browser's session cookie is live but this tab holds no
 * messaging password (a new tab: session storage is per tab). The password is asked once,
 * checked by POST /api/login as on the Login screen, then kept in this tab's session storage
 * like a sign-in's; it never goes to local storage. Sign out leaves for the Login screen.
 */
export function ReconnectPrompt({ username }: { username: string }) {
  const id = useId();
  const { data: theme } = useSuspenseQuery(themeQuery);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const signOut = useSignOut();
  const texts = useTexts(TEXT_BUNDLES.shell);

  const reconnect = useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (!result.ok) {
        setError(result.error);
        return;
      }
      // The screen behind this prompt shows as soon as the credentials are stored.
      connectMessaging(result.credentials);
      storeCredentials(result.credentials);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reconnect.isPending) return;
    setError(null);
    reconnect.mutate({ username, password });
  }

  return (
    <main className="login">
      <div className="login-card">
        <img className="login-logo" src={themeAsset(theme, 'icon.svg')} alt="" />
        <h1 className="login-title">{texts.reconnectTitle}</h1>
        <p className="login-lead">{texts.signedInAs(username)}</p>
        <p className="login-note">{texts.reconnectNote}</p>
        <form className="login-form" onSubmit={submit} noValidate>
          {/* For password managers: the account the password belongs to. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={username}
            readOnly
            hidden
          />
          <label className="field" htmlFor={`${id}-password`}>
            <span className="field-label">{texts.password}</span>
            <input
              id={`${id}-password`}
              className="field-input"
              name="password"
              type="password"
              autoComplete="current-password"
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
          <button
            className="button button-primary login-submit"
            type="submit"
            disabled={reconnect.isPending || signOut.isPending}
          >
            {texts.reconnect}
          </button>
          <button
            className="button login-submit"
            type="button"
            disabled={reconnect.isPending || signOut.isPending}
            onClick={() => signOut.mutate()}
          >
            {texts.signOut}
          </button>
        </form>
        {error !== null && (
          <p className="login-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </main>
  );
}
