import {
  API_ROUTES,
  isSsoErrorCode,
  SSO_ERROR_PARAMETER,
  TEXT_BUNDLES,
  type SSO_TEXTS,
} from '@tessera/contract';
import { useQuery } from '@tanstack/react-query';
import { ssoConfigQuery } from '../../lib/config-queries';
import { useTexts } from '../../lib/i18n';

/**
 * Below the spec's login form when single sign-on is on (issue 30, part 4): a link, not a form,
 * since the server answers with a redirect to the provider (CSP's form-action would stop it).
 * Without an answer from the server the spec's screen shows as it is.
 */
export function SsoButton() {
  const { data } = useQuery(ssoConfigQuery);
  const texts = useTexts(TEXT_BUNDLES.sso);
  if (!data?.enabled || data.name === undefined) return null;
  return (
    <a className="button login-sso" href={API_ROUTES.ssoStart}>
      {texts.signInWith(data.name)}
    </a>
  );
}

/** Why the last single sign-on came back refused (`?sso-error=` from the server), if it did. */
export function ssoErrorText(search: string, texts: typeof SSO_TEXTS): string | null {
  const code = new URLSearchParams(search).get(SSO_ERROR_PARAMETER);
  return isSsoErrorCode(code) ? texts.errors[code] : null;
}
