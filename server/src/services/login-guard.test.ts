import { describe, expect, it } from 'vitest';
import { MemoryLoginGuard, type LoginAttempt } from './login-guard.js';

const limits = {
  perUsernameAndAddress: { points: 3, seconds: 900 },
  perAddress: { points: 5, seconds: 900 },
};

const attempt = (
  username: string,
  address = '10.0.0.1',
  channel: LoginAttempt['channel'] = 'http',
): LoginAttempt => ({ username, address, channel });

/** Reserves and, as a wrong password would, keeps the failure. */
async function fail(guard: MemoryLoginGuard, a: LoginAttempt): Promise<boolean> {
  return (await guard.reserve(a)).allowed;
}

describe('MemoryLoginGuard', () => {
  it('admits exactly the limit of parallel attempts for one username at one address', async () => {
    const guard = new MemoryLoginGuard(limits);
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => guard.reserve(attempt('alice'))),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(3);
    const refused = verdicts.find((v) => !v.allowed);
    expect(refused && !refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('never counts a success', async () => {
    const guard = new MemoryLoginGuard(limits);
    for (let i = 0; i < 50; i++) {
      const a = attempt(`user${i}`);
      expect((await guard.reserve(a)).allowed).toBe(true);
      await guard.succeeded(a);
    }
  });

  it('keeps failures of one address and one channel from refusing anyone elsewhere', async () => {
    const guard = new MemoryLoginGuard(limits);
    for (let i = 0; i < 3; i++)
      expect(await fail(guard, attempt('alice', '10.0.0.2', 'mqtt'))).toBe(true);
    expect(await fail(guard, attempt('alice', '10.0.0.2', 'mqtt'))).toBe(false);
    expect((await guard.reserve(attempt('alice', '10.0.0.3', 'mqtt'))).allowed).toBe(true);
    // The login page at the same address counts apart; its success clears the broker's count.
    const page = attempt('alice', '10.0.0.2', 'http');
    expect((await guard.reserve(page)).allowed).toBe(true);
    await guard.succeeded(page);
    expect((await guard.reserve(attempt('alice', '10.0.0.2', 'mqtt'))).allowed).toBe(true);
  });

  it('refuses an address past its failures whatever the usernames, and gives the username its try back', async () => {
    const guard = new MemoryLoginGuard(limits);
    // Three of bob's right passwords still being checked, and two failures, fill the address.
    const bobs = Array.from({ length: 3 }, () => attempt('bob'));
    for (const bob of bobs) expect((await guard.reserve(bob)).allowed).toBe(true);
    for (let i = 0; i < 2; i++) expect(await fail(guard, attempt(`nobody${i}`))).toBe(true);
    for (let i = 0; i < 5; i++) expect(await fail(guard, attempt('alice'))).toBe(false);
    // Bob's successes give the address three tries back; the refusals above did not use up
    // alice's own tries, so she gets all three.
    for (const bob of bobs) await guard.succeeded(bob);
    for (let i = 0; i < 3; i++) expect(await fail(guard, attempt('alice'))).toBe(true);
    expect(await fail(guard, attempt('alice'))).toBe(false);
  });
});
