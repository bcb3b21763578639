import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStore } from '../files/file-store.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { createHdRetentionRepository, type HdRetentionRepository } from '../store/hd-retention.js';
import { createImageRepository } from '../store/images.js';
import { createMaterialMapRepository } from '../store/material-maps.js';
import { createPrintFileRepository } from '../store/print-files.js';
import { FakeTimers } from '../testing/fake-timers.js';
import { createTestStore, silentLogger, type TestStore } from '../testing/fixtures.js';
import { DAY_MS, ownerId, placeDerivedFiles, placeHdImage } from '../testing/retention.js';
import type { AuditNote } from './audit.js';
import { HdRetentionService } from './hd-retention.js';
import { ImageService } from './images.js';

// The HD retention policy on a real SQLite file and real files, at the instants a fake clock
// gives: the dry run's list is what the run removes, to the millisecond of the cutoff.

const DAYS = 30;
const START = new Date('2026-06-01T03:00:00.000Z');

let store: TestStore;
let files: FileStore;
let clock: FakeTimers;
let alice: { id: number; username: string };
let bob: { id: number; username: string };

beforeEach(async () => {
  store = await createTestStore(['alice', 'bob']);
  files = new LocalFileStore(path.join(store.dataDir, 'files'), path.join(store.dataDir, 'tmp'));
  clock = new FakeTimers(START);
  alice = { id: await ownerId(store.db, 'alice'), username: 'alice' };
  bob = { id: await ownerId(store.db, 'bob'), username: 'bob' };
});
afterEach(() => store.close());

const retention = (repository: HdRetentionRepository = createHdRetentionRepository(store.db)) =>
  new HdRetentionService(repository, files, DAYS, silentLogger);
const ago = (ms: number) => new Date(clock.now().getTime() - ms);
const hdFile = (owner: string, name: string) => files.stat(owner, 'hd', name);

describe('HdRetentionService', () => {
  it('removes exactly what the dry run listed: exactly N days old stays, one ms more goes', async () => {
    await placeHdImage(store.db, files, alice, 'exactly-30-days.png', ago(DAYS * DAY_MS), 100);
    await placeHdImage(store.db, files, alice, 'one-ms-over.png', ago(DAYS * DAY_MS + 1), 200);
    await placeHdImage(store.db, files, bob, 'sixty-days.png', ago(60 * DAY_MS), 400);
    await placeHdImage(store.db, files, alice, 'yesterday.png', ago(DAY_MS), 800);
    const service = retention();

    const dryRun = await service.plan(clock.now());
    expect(dryRun.items.map((i) => [i.owner, i.filename, i.bytes])).toEqual([
      ['bob', 'sixty-days.png', 400],
      ['alice', 'one-ms-over.png', 200],
    ]);
    expect(dryRun.bytes).toBe(600);
    // A dry run changes nothing.
    expect(await hdFile('bob', 'sixty-days.png')).toBeDefined();

    const run = await service.run(clock.now());
    expect(run).toEqual(dryRun);
    expect(await hdFile('bob', 'sixty-days.png')).toBeUndefined();
    expect(await hdFile('alice', 'one-ms-over.png')).toBeUndefined();
    expect(await hdFile('alice', 'exactly-30-days.png')).toBeDefined();
    expect(await hdFile('alice', 'yesterday.png')).toBeDefined();
    expect((await service.plan(clock.now())).items).toEqual([]);

    // One millisecond later the image of exactly 30 days is one ms over.
    await clock.advance(1);
    const later = await service.plan(clock.now());
    expect(later.items.map((i) => i.filename)).toEqual(['exactly-30-days.png']);
    expect((await service.run(clock.now())).items).toEqual(later.items);
  });

  it('records each run in the audit trail, with its actor, what it removed and the space freed', async () => {
    await placeHdImage(store.db, files, bob, 'sixty-days.png', ago(60 * DAY_MS), 400);
    const notes: AuditNote[] = [];
    const audited = new HdRetentionService(
      createHdRetentionRepository(store.db),
      files,
      DAYS,
      silentLogger,
      { note: (entry) => Promise.resolve(void notes.push(entry)) },
    );
    await audited.run(clock.now(), { name: 'cli' });
    await audited.run(clock.now());
    expect(notes).toEqual([
      {
        actor: { name: 'cli' },
        action: 'retention-run',
        details: { days: DAYS, cutoff: ago(DAYS * DAY_MS).toISOString(), removed: 1, bytes: 400 },
      },
      {
        actor: null,
        action: 'retention-run',
        details: { days: DAYS, cutoff: ago(DAYS * DAY_MS).toISOString(), removed: 0, bytes: 0 },
      },
    ]);
  });

  it('keeps the LD image, the HD row, its metadata and thumbnail; the HD list says when it went', async () => {
    await placeHdImage(store.db, files, alice, 'old.png', ago(40 * DAY_MS));
    await retention().run(clock.now());

    const images = new ImageService(createImageRepository(store.db), files, silentLogger);
    const hd = await images.list(alice, 'hd', 1, 10);
    // As the gallery receives it: the metadata goes out as it was stored (JsonText).
    expect(JSON.parse(JSON.stringify(hd.images))).toMatchObject([
      {
        filename: 'old.png',
        metadata: { size: '60x60', source_image: 'ld-old.png' },
        hdRemovedAt: START.toISOString(),
      },
    ]);
    expect((await images.list(alice, 'ld', 1, 10)).images).toMatchObject([
      { filename: 'ld-old.png', hdRemovedAt: null },
    ]);
    expect(await files.stat('alice', 'ld', 'ld-old.png')).toBeDefined();
    expect(await files.stat('alice', 'hd-thumbnails', 'old.png.webp')).toBeDefined();
    // Deleting the removed HD from the gallery still works (its file is simply not there).
    await images.remove(alice, 'hd', 'old.png');
    expect((await images.list(alice, 'hd', 1, 10)).total).toBe(0);
  });

  it('removes the material maps and print files made from a removed HD, and counts their space', async () => {
    await placeHdImage(store.db, files, alice, 'old.png', ago(40 * DAY_MS), 1000);
    const old = await placeDerivedFiles(store.db, files, alice, 'old.png', {
      map: 300,
      print: 5000,
    });
    await placeHdImage(store.db, files, alice, 'recent.png', ago(DAY_MS), 1000);
    const recent = await placeDerivedFiles(store.db, files, alice, 'recent.png', {
      map: 300,
      print: 5000,
    });
    const images = createImageRepository(store.db);
    const idOf = async (name: string) => (await images.find(alice.id, 'hd', name))?.id ?? -1;
    const oldId = await idOf('old.png');
    const recentId = await idOf('recent.png');
    const service = retention();

    const dryRun = await service.plan(clock.now());
    expect(dryRun.items).toMatchObject([{ filename: 'old.png', bytes: 1000, derivedBytes: 5300 }]);
    expect(dryRun.bytes).toBe(6300);
    expect(await service.run(clock.now())).toEqual(dryRun);

    for (const name of old.maps) expect(await files.stat('alice', 'maps', name)).toBeUndefined();
    expect(await files.stat('alice', 'print', old.print)).toBeUndefined();
    expect(await createMaterialMapRepository(store.db).ofImage(oldId)).toBeUndefined();
    expect(await createPrintFileRepository(store.db).ofImage(oldId)).toEqual([]);
    // A recent HD keeps what was made from it.
    for (const name of recent.maps) expect(await files.stat('alice', 'maps', name)).toBeDefined();
    expect(await files.stat('alice', 'print', recent.print)).toBeDefined();
    expect(await createPrintFileRepository(store.db).ofImage(recentId)).toHaveLength(1);
  });

  it('finishes, on the next run, a run stopped after marking or after removing the file', async () => {
    const real = createHdRetentionRepository(store.db);
    // Stopped (here: failed) between removing the file and marking it done.
    await placeHdImage(store.db, files, alice, 'stopped-after-file.png', ago(40 * DAY_MS));
    const stopAfterFile = new HdRetentionService(
      { ...real, markDone: () => Promise.reject(new Error('stopped')) },
      files,
      DAYS,
      silentLogger,
    );
    await expect(stopAfterFile.run(clock.now())).rejects.toThrow('stopped');
    // Stopped between marking and removing the file (it is the oldest: the run's first).
    await placeHdImage(store.db, files, alice, 'stopped-after-mark.png', ago(50 * DAY_MS));
    const failingFiles = Object.create(files) as FileStore;
    failingFiles.prepareRemoval = () => Promise.reject(new Error('stopped'));
    const stopAfterMark = new HdRetentionService(real, failingFiles, DAYS, silentLogger);
    await expect(stopAfterMark.run(clock.now())).rejects.toThrow('stopped');

    // Meanwhile both are marked: the gallery never shows an HD whose file may be gone as there.
    const images = createImageRepository(store.db);
    for (const name of ['stopped-after-mark.png', 'stopped-after-file.png']) {
      expect((await images.find(alice.id, 'hd', name))?.hdRemovedAt).toBe(START.toISOString());
    }
    expect(await hdFile('alice', 'stopped-after-mark.png')).toBeDefined();
    expect(await hdFile('alice', 'stopped-after-file.png')).toBeUndefined();

    // The next run, a day later, lists both still and finishes both.
    await clock.advance(DAY_MS);
    const rerun = retention();
    const dryRun = await rerun.plan(clock.now());
    expect(dryRun.items.map((i) => i.filename)).toEqual([
      'stopped-after-mark.png',
      'stopped-after-file.png',
    ]);
    expect(await rerun.run(clock.now())).toEqual(dryRun);
    expect(await hdFile('alice', 'stopped-after-mark.png')).toBeUndefined();
    expect((await rerun.plan(clock.now())).items).toEqual([]);
    // Dated when first marked, not at the rerun.
    expect((await images.find(alice.id, 'hd', 'stopped-after-mark.png'))?.hdRemovedAt).toBe(
      START.toISOString(),
    );
  });

  it('does nothing without a policy (0 days)', async () => {
    await placeHdImage(store.db, files, alice, 'ancient.png', ago(3650 * DAY_MS));
    const off = new HdRetentionService(
      createHdRetentionRepository(store.db),
      files,
      0,
      silentLogger,
    );
    expect(off.enabled).toBe(false);
    expect((await off.plan(clock.now())).items).toEqual([]);
    expect(await off.runDaily(clock.now(), 'me')).toBeUndefined();
    expect(await hdFile('alice', 'ancient.png')).toBeDefined();
  });
});
