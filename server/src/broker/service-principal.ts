import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface ServiceCredentials {
  username: string;
  password: string;
}

/**
 * The messaging service's own broker login for the embedded broker: made at start, held only in
 * memory. The `$` prefix is outside the username pattern, so no user can ever be called this.
 */
export function generateServiceCredentials(): ServiceCredentials {
  return {
    username: `$tessera-service-${randomBytes(4).toString('hex')}`,
    password: randomBytes(32).toString('base64url'),
  };
}

export function isServiceLogin(
  credentials: ServiceCredentials,
  username: string,
  password: Buffer,
): boolean {
  const expected = Buffer.from(credentials.password);
  return (
    username === credentials.username &&
    password.length === expected.length &&
    timingSafeEqual(password, expected)
  );
}
