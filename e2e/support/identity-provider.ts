import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** What the test provider knows of a person: their login there and their claims. */
export interface ProviderAccount {
  login: string;
  claims: Record<string, unknown>;
}

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * An OpenID Connect provider on loopback (oidc-provider with its development sign-in form:
 * any password), with one confidential client whose redirect URI is Tessera's callback and
 * whose post-logout redirect URI is Tessera's login page (RP-initiated logout, on by default
 * in oidc-provider: its end-session page asks the person to confirm). Consent is taken as
 * given, as a company's provider does for its own applications.
 */
export async function startIdentityProvider(
  redirectUri: string,
  postLogoutRedirectUri: string,
  accounts: readonly ProviderAccount[],
): Promise<IdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'tessera';
  const clientSecret = 'tessera-test-client-secret-0123456789';
  const byLogin = new Map(accounts.map((a) => [a.login, a]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name', 'groups'],
      email: ['email'],
    },
    findAccount: (_ctx, sub) => {
      const account = byLogin.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...account.claims }) };
    },
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope('openid profile email');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['tessera-test-provider-cookie-key'] },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
