import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { createImageRepository } from '../store/images.js';
import { createReferenceRepository } from '../store/references.js';
import { createTestStore, silentLogger, type TestStore } from '../testing/fixtures.js';
import type { Owner } from '../owner.js';
import { ReferenceService, type KeptReference } from './references.js';

/**
 * A reference is stored once per user by its content (issue 22, part 13), on a real SQLite file
 * and real files: the same bytes uploaded again reuse it, another user's stay theirs, and files
 * from before the hashes were recorded are matched too.
 */

let store: TestStore;
let files: LocalFileStore;
let service: ReferenceService;
let alice: Owner;
let bob: Owner;

beforeEach(async () => {
  store = await createTestStore(['alice', 'bob']);
  files = new LocalFileStore(path.join(store.dataDir, 'files'));
  service = new ReferenceService(
    createImageRepository(store.db),
    files,
    createReferenceRepository(store.db),
    silentLogger,
  );
  const ids = await store.db.selectFrom('users').select(['id', 'username']).execute();
  const owner = (name: string): Owner => ({
    id: ids.find((u) => u.username === name)?.id ?? 0,
    username: name,
  });
  alice = owner('alice');
  bob = owner('bob');
});
afterEach(async () => {
  await store.close();
});

/** Uploads `bytes` as `owner` under a new name, as the preview route does. */
async function upload(owner: Owner, bytes: string, newName: string): Promise<KeptReference> {
  const scratch = await files.openScratch();
  try {
    const file = scratch.newFile('png');
    await fs.writeFile(file.path, bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return await service.keep(owner, { file, sha256, newName });
  } finally {
    await scratch.dispose();
  }
}

const names = async (owner: Owner) =>
  (await files.list(owner.username, 'input')).map((f) => f.name).sort();

describe('ReferenceService.keep (issue 22, part 13)', () => {
  it('stores the same bytes once per user, and each user their own', async () => {
    expect(await upload(alice, 'oak', 'oak-1.png')).toEqual({ filename: 'oak-1.png', isNew: true });
    expect(await upload(alice, 'oak', 'oak-2.png')).toEqual({
      filename: 'oak-1.png',
      isNew: false,
    });
    expect(await upload(alice, 'oak', 'renamed-3.png')).toEqual({
      filename: 'oak-1.png',
      isNew: false,
    });
    expect(await upload(alice, 'elm', 'elm-1.png')).toEqual({ filename: 'elm-1.png', isNew: true });
    expect(await upload(bob, 'oak', 'oak-4.png')).toEqual({ filename: 'oak-4.png', isNew: true });
    expect(await names(alice)).toEqual(['elm-1.png', 'oak-1.png']);
    expect(await names(bob)).toEqual(['oak-4.png']);
  });

  it('stores identical uploads made at the same instant once', async () => {
    const kept = await Promise.all(
      Array.from({ length: 6 }, (_, n) => upload(alice, 'oak', `oak-${n}.png`)),
    );
    expect(new Set(kept.map((k) => k.filename)).size).toBe(1);
    expect(await names(alice)).toEqual([kept[0]?.filename]);
  });

  it('matches a reference stored before hashes were recorded, and stores anew once its file is gone', async () => {
    await files.write('alice', 'input', 'old.png', Buffer.from('oak'));
    expect(await upload(alice, 'oak', 'oak-1.png')).toEqual({ filename: 'old.png', isNew: false });
    await (await files.prepareRemoval('alice', 'input', 'old.png')).commit();
    expect(await upload(alice, 'oak', 'oak-2.png')).toEqual({ filename: 'oak-2.png', isNew: true });
    expect(await names(alice)).toEqual(['oak-2.png']);
  });
});
