import { describe, expect, it } from 'vitest';
import { claimAt, ssoRole, ssoUsername } from './sso-claims.js';

const ISSUER = 'https://id.example';

describe('the username of a single sign-on', () => {
  it('is the username claim when it is a valid username', () => {
    expect(
      ssoUsername({ sub: '1', preferred_username: 'ana.garcia' }, 'preferred_username', ISSUER),
    ).toBe('ana.garcia');
    expect(ssoUsername({ sub: '1', upn: 'ana' }, 'upn', ISSUER)).toBe('ana');
  });

  it.each([
    ['an e-mail address', 'ana@example.com'],
    ['a name with spaces', 'Ana García'],
    ['a topic wildcard', 'ana/#'],
    ['the parent folder', '..'],
    ['too long', 'a'.repeat(65)],
    ['not a string', 42],
    ['absent', undefined],
  ])('is made from sub when the claim is %s', (_, value) => {
    const name = ssoUsername(
      { sub: 'f3a1-77', preferred_username: value },
      'preferred_username',
      ISSUER,
    );
    expect(name).toMatch(/^sso-[0-9a-f]{16}$/);
    // The same person gets the same name at every sign-in, and another provider's another.
    expect(ssoUsername({ sub: 'f3a1-77' }, 'preferred_username', ISSUER)).toBe(name);
    expect(ssoUsername({ sub: 'f3a1-77' }, 'preferred_username', 'https://other.example')).not.toBe(
      name,
    );
  });

  it('refuses an ID token without sub when it needs it', () => {
    expect(() =>
      ssoUsername({ preferred_username: 'a b' }, 'preferred_username', ISSUER),
    ).toThrow();
  });
});

describe('claims and roles', () => {
  it('reads nested claims by a dotted path', () => {
    expect(claimAt({ realm_access: { roles: ['x'] } }, 'realm_access.roles')).toEqual(['x']);
    expect(claimAt({ 'a.b': 1 }, 'a.b')).toBe(1);
    expect(claimAt({ a: 'text' }, 'a.b')).toBeUndefined();
  });

  it('gives admin when the claim holds the admin value, member otherwise', () => {
    const settings = { roleClaim: 'groups', adminValue: 'tessera-admins' };
    expect(ssoRole({ groups: ['staff', 'tessera-admins'] }, settings)).toBe('admin');
    expect(ssoRole({ groups: 'tessera-admins' }, settings)).toBe('admin');
    expect(ssoRole({ groups: ['staff'] }, settings)).toBe('member');
    expect(ssoRole({}, settings)).toBe('member');
  });

  it('leaves the role alone without a role claim configured', () => {
    expect(ssoRole({ groups: ['tessera-admins'] }, {})).toBeUndefined();
  });
});
