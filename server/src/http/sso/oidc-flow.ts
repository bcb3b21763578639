import * as oidc from 'openid-client';
import type { SsoSettings } from './settings.js';

/** What a browser's sign-in must bring back: kept in a short-lived cookie of its own. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person the provider signed in: their checked claims, and the ID token that carried them. */
export interface SignedInPerson {
  claims: Record<string, unknown>;
  idToken: string;
}

/** Why the provider's redirect back did not give checked claims. */
export class SsoFlowError extends Error {
  override name = 'SsoFlowError';
  constructor(
    readonly code: 'state-mismatch' | 'nonce-mismatch' | 'provider-refused' | 'provider-failed',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The authorization code flow with PKCE, state and nonce against one OpenID Connect provider,
 * through openid-client. The provider's metadata is read at the first sign-in (not at start: a
 * provider that is down must not stop Tessera) and kept; a failed read is tried again next time.
 */
export class OidcFlow {
  private metadata: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: SsoSettings) {}

  /** Where to send the browser, and what its return must match. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }> {
    const config = await this.configuration();
    const pending: PendingSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /**
   * The claims of the person the provider signed in (the ID token's, with the userinfo's), once
   * the state, the code (PKCE), the ID token's signature, audience and nonce are checked; and the
   * ID token itself, kept with the session for the provider's logout.
   */
  async finish(
    callbackUrl: URL,
    redirectUri: string,
    pending: PendingSignIn | undefined,
  ): Promise<SignedInPerson> {
    const params = callbackUrl.searchParams;
    // Checked here first, so that a mismatch is told apart from the provider's own refusals.
    if (!pending || params.get('state') !== pending.state) {
      throw new SsoFlowError('state-mismatch', 'the state is not the one this browser started');
    }
    if (params.has('error')) {
      throw new SsoFlowError('provider-refused', `the provider answered ${params.get('error')}`);
    }
    const config = await this.configuration();
    // openid-client compares the redirect_uri it sends with the one registered: give ours.
    const current = new URL(redirectUri);
    current.search = callbackUrl.search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (isNonceMismatch(err)) throw new SsoFlowError('nonce-mismatch', 'nonce', { cause: err });
      throw new SsoFlowError('provider-failed', 'the code exchange failed', { cause: err });
    }
    const idClaims = tokens.claims();
    const idToken = tokens.id_token;
    if (!idClaims || !idToken) {
      throw new SsoFlowError('provider-failed', 'the provider gave no ID token');
    }
    if (!config.serverMetadata().userinfo_endpoint) return { claims: { ...idClaims }, idToken };
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      // The ID token's claims win: they are signed, the userinfo's add what it lacks.
      return { claims: { ...info, ...idClaims }, idToken };
    } catch (err) {
      throw new SsoFlowError('provider-failed', 'the userinfo request failed', { cause: err });
    }
  }

  /**
   * Where to send a browser whose single sign-on session just ended, so that the provider ends
   * its own session too (RP-initiated logout) and sends it back to `postLogoutRedirectUri`
   * (which must be registered at the provider); undefined when the provider offers no
   * end-session endpoint.
   */
  async endSessionUrl(idToken: string, postLogoutRedirectUri: string): Promise<string | undefined> {
    const config = await this.configuration();
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    // openid-client adds client_id.
    return oidc.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: postLogoutRedirectUri,
    }).href;
  }

  private configuration(): Promise<oidc.Configuration> {
    this.metadata ??= this.discover().catch((err: unknown) => {
      this.metadata = undefined;
      throw new SsoFlowError('provider-failed', 'the provider metadata could not be read', {
        cause: err,
      });
    });
    return this.metadata;
  }

  private discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // settings.ts admits http:// for a provider on this machine only (tests, trials).
    const plain = new URL(issuer).protocol === 'http:';
    return oidc.discovery(
      new URL(issuer),
      clientId,
      undefined,
      oidc.ClientSecretBasic(clientSecret),
      plain ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
  }
}

/**
 * openid-client wraps oauth4webapi's error, whose cause names the claim that did not match
 * (`{ claim: 'nonce' }`): looked for down the chain of causes.
 */
function isNonceMismatch(err: unknown): boolean {
  for (let at: unknown = err, depth = 0; at && depth < 4; depth += 1) {
    if ((at as { claim?: unknown }).claim === 'nonce') return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}
