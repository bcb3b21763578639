import { describe, expect, it } from 'vitest';
import { API_TOKEN_TEXTS, API_TOKEN_TEXTS_EN } from './api-token-texts.js';
import { bearerCredential, createApiTokenRequestSchema } from './api-tokens.js';
import { API_OPERATIONS } from './openapi.js';
import { API_ROUTES } from './routes.js';

const name = (operation: { method: string; path: string }) =>
  `${operation.method} ${operation.path}`;

describe('the scope of every operation (one table: the operations themselves)', () => {
  it('gives every guarded operation a token scope or cookie-only, and the rest public', () => {
    for (const operation of API_OPERATIONS) {
      const { auth, scope } = operation;
      const allowed =
        auth === 'admin'
          ? ['cookie-only']
          : auth === 'session'
            ? ['read', 'generate', 'manage', 'cookie-only']
            : auth === 'none'
              ? ['public', 'cookie-only']
              : ['public'];
      expect(allowed, name(operation)).toContain(scope);
    }
  });

  it('reads with read only: every GET a token may call needs the read scope', () => {
    for (const operation of API_OPERATIONS) {
      if (operation.method !== 'GET' || operation.auth !== 'session') continue;
      if (operation.scope === 'cookie-only') continue;
      expect(operation.scope, name(operation)).toBe('read');
    }
  });

  it('keeps sign-in, the session, token management and the admin API to the cookie', () => {
    const cookieOnly = API_OPERATIONS.filter((operation) => operation.scope === 'cookie-only').map(
      (operation) => operation.path,
    );
    for (const path of [
      API_ROUTES.login,
      API_ROUTES.logout,
      API_ROUTES.session,
      API_ROUTES.apiTokens,
      API_ROUTES.createApiToken,
      API_ROUTES.revokeApiToken,
      API_ROUTES.adminUsers,
      API_ROUTES.adminAudit,
      API_ROUTES.webhooks,
      API_ROUTES.webhookResend,
      API_ROUTES.webhookRotateSecret,
    ]) {
      expect(cookieOnly).toContain(path);
    }
    for (const operation of API_OPERATIONS.filter((o) => o.path.startsWith('/api/admin/')))
      expect(operation.scope, name(operation)).toBe('cookie-only');
  });

  it('makes and orders with generate, and changes or deletes with manage', () => {
    const scopeOf = (method: string, path: string) =>
      API_OPERATIONS.find((o) => o.method === method && o.path === path)?.scope;
    expect(scopeOf('POST', API_ROUTES.generatePreview)).toBe('generate');
    expect(scopeOf('POST', API_ROUTES.hdOrder)).toBe('generate');
    expect(scopeOf('POST', API_ROUTES.materialMapsOrder)).toBe('generate');
    expect(scopeOf('POST', API_ROUTES.printOrder)).toBe('generate');
    expect(scopeOf('POST', API_ROUTES.assignTag)).toBe('manage');
    expect(scopeOf('POST', API_ROUTES.unassignTag)).toBe('manage');
    for (const path of [
      API_ROUTES.starLd,
      API_ROUTES.deleteLd,
      API_ROUTES.deleteHd,
      API_ROUTES.createTag,
      API_ROUTES.updateTag,
      API_ROUTES.deleteTag,
    ])
      expect(scopeOf('POST', path), path).toBe('manage');
    expect(scopeOf('GET', API_ROUTES.whoami)).toBe('read');
    expect(scopeOf('GET', API_ROUTES.hdJob)).toBe('read');
  });
});

describe('bearerCredential', () => {
  it('reads a Bearer token, whatever the scheme case, and nothing else', () => {
    expect(bearerCredential('Bearer tsr_abc')).toBe('tsr_abc');
    expect(bearerCredential('bearer  tsr_abc ')).toBe('tsr_abc');
    expect(bearerCredential('Bearer')).toBe('');
    expect(bearerCredential('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerCredential(undefined)).toBeUndefined();
    expect(bearerCredential('Bearer a b')).toBe('a b');
    expect(bearerCredential('Bearerx')).toBeUndefined();
  });
});

describe('createApiTokenRequestSchema', () => {
  const valid = { name: 'HD script', scopes: ['read', 'generate'], expires_in_days: 90 };

  it('takes a name, one to three distinct scopes and an offered expiry or none', () => {
    expect(createApiTokenRequestSchema.parse(valid)).toEqual(valid);
    expect(
      createApiTokenRequestSchema.parse({ ...valid, expires_in_days: null }).expires_in_days,
    ).toBeNull();
    expect(createApiTokenRequestSchema.parse({ ...valid, name: '  x  ' }).name).toBe('x');
  });

  it('refuses no scope, a repeated or unknown scope, another expiry, a blank name', () => {
    for (const bad of [
      { ...valid, scopes: [] },
      { ...valid, scopes: ['read', 'read'] },
      { ...valid, scopes: ['admin'] },
      { ...valid, expires_in_days: 7 },
      { ...valid, expires_in_days: undefined },
      { ...valid, name: '   ' },
      { ...valid, name: 'x'.repeat(65) },
    ]) {
      expect(createApiTokenRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the tokens screen texts', () => {
  it('have the same keys in Spanish and in English, at every level', () => {
    const shape = (texts: object): unknown =>
      Object.fromEntries(
        Object.entries(texts).map(([key, value]) => [
          key,
          typeof value === 'object' && value !== null ? shape(value as object) : typeof value,
        ]),
      );
    expect(shape(API_TOKEN_TEXTS_EN)).toEqual(shape(API_TOKEN_TEXTS));
  });
});
