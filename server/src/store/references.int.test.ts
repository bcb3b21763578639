import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOwner, freshDatabase, type TestDatabase } from '../testing/database.js';
import { createReferenceRepository, type ReferenceRepository } from './references.js';

/** The references' content hashes (issue 22, part 13), on a real database. */
describe('ReferenceRepository', () => {
  let store: TestDatabase;
  let repo: ReferenceRepository;
  let ann: number;
  let bob: number;
  beforeEach(async () => {
    store = await freshDatabase();
    repo = createReferenceRepository(store.db);
    ann = await addOwner(store.db, 'ann');
    bob = await addOwner(store.db, 'bob');
  });
  afterEach(async () => {
    await store.close();
  });

  it("finds the owner's first recorded file with a hash, never another owner's (issue 22, part 13)", async () => {
    await repo.record(ann, 'first.png', 'h1', '2026-01-02T00:00:00.000Z');
    await repo.record(ann, 'later.png', 'h1', '2026-01-01T00:00:00.000Z');
    await repo.record(ann, 'other.png', 'h2', '2026-01-01T00:00:00.000Z');
    expect(await repo.findByHash(ann, 'h1')).toBe('first.png');
    expect(await repo.findByHash(bob, 'h1')).toBeUndefined();
    expect(await repo.hashedNames(ann)).toEqual(new Set(['later.png', 'first.png', 'other.png']));
    expect(await repo.hashedNames(bob)).toEqual(new Set());
  });

  it('records a file once, and forgets it', async () => {
    await repo.record(ann, 'a.png', 'h1', '2026-01-01T00:00:00.000Z');
    await repo.record(ann, 'a.png', 'h9', '2026-01-03T00:00:00.000Z');
    expect(await repo.findByHash(ann, 'h1')).toBe('a.png');
    expect(await repo.findByHash(ann, 'h9')).toBeUndefined();
    await repo.forget(ann, 'a.png');
    expect(await repo.findByHash(ann, 'h1')).toBeUndefined();
  });
});
