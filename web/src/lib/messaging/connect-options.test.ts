import { describe, expect, it } from 'vitest';
import { messagingConnectOptions } from './connect-options';

describe('messagingConnectOptions', () => {
  it('logs in with the session messaging secret when there is one, else the password (issue 22, part 3)', () => {
    const login = { username: 'ann', password: 'ann-password' };
    expect(messagingConnectOptions(login, 4)).toMatchObject({
      username: 'ann',
      password: 'ann-password',
      connectTimeout: 4000,
    });
    const withSecret = { ...login, messagingSecret: 'tessera-secret:abc' };
    expect(messagingConnectOptions(withSecret, 4)).toMatchObject({
      username: 'ann',
      password: 'tessera-secret:abc',
    });
  });

  it("connects as a single sign-on session's own login when it has one (issue 30, part 4)", () => {
    const login = {
      username: 'ann',
      password: '',
      messagingSecret: 'tessera-secret:abc',
      messagingUsername: 'ann~sso~0123456789abcdef',
    };
    expect(messagingConnectOptions(login, 5)).toMatchObject({
      username: 'ann~sso~0123456789abcdef',
      password: 'tessera-secret:abc',
    });
  });
});
