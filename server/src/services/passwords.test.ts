import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, UNUSABLE_HASH, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const hash = await hashPassword('café');
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });

  it('rejects malformed stored hashes and matches nothing against the unusable one', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
    expect(await verifyPassword('', UNUSABLE_HASH)).toBe(false);
  });

  it('generates long random passwords', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[\w-]{24}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
