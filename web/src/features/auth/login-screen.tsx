import { SCREEN_PATHS, TEXT_BUNDLES } from '@tessera/contract';
import type { SessionResponse } from '@tessera/contract';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch';
import { login } from '../../lib/api/session';
import { titleQuery, themeQuery } from '../../lib/config-queries';
import { useTexts } from '../../lib/i18n';
import { connectMessaging } from '../../lib/mqtt';
import { themeAsset } from '../../lib/theme';
import { storeCredentials } from './credentials';
import { sessionQuery } from './session';
import { SsoButton, ssoErrorText } from './sso-button';
import './login-screen.css';

/** Route `/` (SPEC §2 Login, checklist L1–L5). No client-side validation, on purpose. */
export function LoginScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = useId();
  const texts = useTexts(TEXT_BUNDLES.shell);
  const ssoTexts = useTexts(TEXT_BUNDLES.sso);
  const { data: title } = useSuspenseQuery(titleQuery);
  const { data: theme } = useSuspenseQuery(themeQuery);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // A refused single sign-on comes back here with its reason in the address.
  const [error, setError] = useState<string | null>(() =>
    ssoErrorText(window.location.search, ssoTexts),
  );

  const signIn = useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      if (!result.ok) {
        setError(result.error);
        return;
      }
      storeCredentials(result.credentials);
      connectMessaging(result.credentials);
      // The cookie just set is this user's: the screens need not ask the server who it is.
      const session: SessionResponse = { username: result.credentials.username };
      queryClient.setQueryData(sessionQuery.queryKey, session);
      // Its role (the admin screens' link) comes with the session read again, in the background.
      void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
      void navigate(SCREEN_PATHS.dashboard);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (signIn.isPending) return;
    setError(null);
    signIn.mutate({ username, password });
  }

  return (
    <main className="login">
      <div className="login-card">
        <LanguageSwitch className="login-language" />
        <img className="login-logo" src={themeAsset(theme, 'icon.svg')} alt="" />
        <h1 className="login-title">{title}</h1>
        <p className="login-lead">{texts.loginLead}</p>
        <form className="login-form" onSubmit={submit} noValidate>
          <label className="field" htmlFor={`${id}-username`}>
            <span className="field-label">{texts.user}</span>
            <input
              id={`${id}-username`}
              className="field-input"
              name="username"
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          </label>
          <label className="field" htmlFor={`${id}-password`}>
            <span className="field-label">{texts.password}</span>
            <input
              id={`${id}-password`}
              className="field-input"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
          <button
            className="button button-primary login-submit"
            type="submit"
            disabled={signIn.isPending}
          >
            {texts.signIn}
          </button>
        </form>
        {error !== null && (
          <p className="login-error" role="alert">
            {error}
          </p>
        )}
        <SsoButton />
      </div>
    </main>
  );
}
