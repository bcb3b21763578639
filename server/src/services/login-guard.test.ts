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
  const { allowed } = await guard.reserve(a);
  if (allowed) await guard.failed(a);
  return allowed;
}

/** Reserves and, as a right password would, gives the advance back. */
async function succeed(guard: MemoryLoginGuard, a: LoginAttempt): Promise<boolean> {
  const { allowed } = await guard.reserve(a);
  if (allowed) await guard.succeeded(a);
  return allowed;
}

describe('MemoryLoginGuard', () => {
  it('admits exactly the limit of parallel wrong attempts for one username at one address', async () => {
    const guard = new MemoryLoginGuard(limits);
    const a = attempt('alice');
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () =>
        guard.reserve(a).then(async (v) => {
          if (v.allowed) await guard.failed(a);
          return v;
        }),
      ),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(3);
    const refused = verdicts.find((v) => !v.allowed);
    expect(refused && !refused.allowed && refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('never refuses a right password because other checks are under way (issue 22, part 2)', async () => {
    const guard = new MemoryLoginGuard(limits);
    const a = attempt('alice');
    const admitted = await Promise.all(Array.from({ length: 100 }, () => succeed(guard, a)));
    expect(admitted.filter(Boolean)).toHaveLength(100);
  });

  it('waits for checks under way at a full address, then refuses once they failed (issue 22, part 2)', async () => {
    const guard = new MemoryLoginGuard(limits);
    const bobs = Array.from({ length: 5 }, (_, i) => attempt(`bob${i}`));
    for (const bob of bobs) expect((await guard.reserve(bob)).allowed).toBe(true);
    // The address is full of checks under way: alice waits instead of being refused.
    const alice = guard.reserve(attempt('alice'));
    await guard.succeeded(bobs[0] as LoginAttempt);
    expect((await alice).allowed).toBe(true);
    await guard.failed(attempt('alice'));
    for (const bob of bobs.slice(1)) await guard.failed(bob);
    // Now five confirmed failures fill it: refused at once.
    expect((await guard.reserve(attempt('carol'))).allowed).toBe(false);
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

  it("refuses an address past its failures whatever the usernames, without using up the username's tries", async () => {
    const guard = new MemoryLoginGuard(limits, { maxWaitMs: 60_000, pollMs: 60_000 });
    for (let i = 0; i < 5; i++) expect(await fail(guard, attempt(`nobody${i}`))).toBe(true);
    for (let i = 0; i < 5; i++) expect(await fail(guard, attempt('alice'))).toBe(false);
    // The refusals above did not use up alice's own tries: elsewhere she gets all three.
    for (let i = 0; i < 3; i++) expect(await fail(guard, attempt('alice', '10.0.0.9'))).toBe(true);
    expect(await fail(guard, attempt('alice', '10.0.0.9'))).toBe(false);
  });
});
