import { errorText } from '@tessera/contract';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { FileArea, FileStore, PendingRemoval, StoredFile } from '../files/file-store.js';
import { withPngText } from '../imaging/png-text.js';
import { JsonText } from '../runtime/json-text.js';
import type { ImageRecord, ImageRepository, NewImage } from '../store/images.js';
import type { ListedImage } from '../store/image-rows.js';
import { silentLogger } from '../testing/fixtures.js';
import { strictFake } from '../testing/strict-fake.js';
import type { Owner } from '../owner.js';
import { ImageService, type ImageJobs } from './images.js';

// The image rules on fakes of the images table, the file store and the HD jobs: no database, no
// disk, no server. Indexing reads real image bytes (libvips), as the service does.

const alice: Owner = { id: 1, username: 'alice' };
const bob: Owner = { id: 2, username: 'bob' };

function image(fields: Partial<ImageRecord> & Pick<ImageRecord, 'id' | 'filename'>): ImageRecord {
  return {
    ownerId: alice.id,
    kind: 'ld',
    sourceImageId: null,
    width: 64,
    height: 64,
    bytes: 100,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    starred: false,
    hdRemovedAt: null,
    ...fields,
  };
}

/** The images table answering `find` by owner, kind and name, as the real one does. */
function findIn(held: ImageRecord[]): ImageRepository['find'] {
  return (ownerId, kind, filename) =>
    Promise.resolve(
      held.find((i) => i.ownerId === ownerId && i.kind === kind && i.filename === filename),
    );
}

const noJobs = strictFake<ImageJobs>('hdJobs');

describe('ImageService.list', () => {
  const listed = (fields: Partial<ListedImage> & Pick<ListedImage, 'id' | 'filename'>) => ({
    metadata: JsonText.ofObject(JSON.stringify({})),
    tags: [],
    starred: false,
    hdRemovedAt: null,
    ...fields,
  });

  it("turns the owner's page of LD images into gallery items with their tags", async () => {
    const tile = listed({
      id: 7,
      filename: 'tile.png',
      metadata: JsonText.ofObject(JSON.stringify({ seed: 3 })),
      tags: ['tag-stone'],
      starred: true,
    });
    const page = vi.fn(() => Promise.resolve({ images: [tile], total: 9 }));
    const service = new ImageService(
      strictFake('images', { page }),
      strictFake('files'),
      silentLogger,
      noJobs,
    );
    const list = await service.list(alice, 'ld', 2, 1, ['tag-stone']);
    expect(JSON.parse(JSON.stringify(list))).toEqual({
      total: 9,
      images: [
        {
          filename: 'tile.png',
          thumbnail: '/api/images/ld/thumbnail/tile.png',
          metadata: { seed: 3 },
          tags: ['tag-stone'],
          starred: true,
          hdRemovedAt: null,
        },
      ],
    });
    expect(page).toHaveBeenCalledWith({
      ownerId: alice.id,
      kind: 'ld',
      page: 2,
      size: 1,
      anyOfTags: ['tag-stone'],
    });
  });

  it("points an HD image's thumbnail at the HD gallery's", async () => {
    const big = listed({ id: 8, filename: 'tile_120x120.png' });
    const page = () => Promise.resolve({ images: [big], total: 1 });
    const service = new ImageService(
      strictFake('images', { page }),
      strictFake('files'),
      silentLogger,
      noJobs,
    );
    const { images } = await service.list(alice, 'hd', 1, 10);
    expect(images[0]?.thumbnail).toBe('/api/images/hd/thumbnail/tile_120x120.png');
  });

  it('gives the store a search folded as its columns are, newest first by default', async () => {
    const page = vi.fn(() => Promise.resolve({ images: [], total: 0 }));
    const service = new ImageService(
      strictFake('images', { page }),
      strictFake('files'),
      silentLogger,
      noJobs,
    );
    await service.list(alice, 'ld', 1, 10, undefined, {
      text: '  Cerámica ',
      seed: '007',
      starred: true,
    });
    expect(page).toHaveBeenCalledWith(
      expect.objectContaining({
        search: { promptKey: 'ceramica', seedKey: '7', starredOnly: true, sort: 'newest' },
      }),
    );
  });
});

describe('ImageService.star', () => {
  it("stars the owner's LD image", async () => {
    const setStarred = vi.fn(() => Promise.resolve());
    const service = new ImageService(
      strictFake('images', { find: findIn([image({ id: 7, filename: 'tile.png' })]), setStarred }),
      strictFake('files'),
      silentLogger,
      noJobs,
    );
    await service.star(alice, 'tile.png', true);
    expect(setStarred).toHaveBeenCalledWith(alice.id, 7, true);
  });

  it("finds no image under another user's name, and stars nothing", async () => {
    const setStarred = vi.fn(() => Promise.resolve());
    const service = new ImageService(
      strictFake('images', {
        find: findIn([image({ id: 7, ownerId: bob.id, filename: 'tile.png' })]),
        setStarred,
      }),
      strictFake('files'),
      silentLogger,
      noJobs,
    );
    await expect(service.star(alice, 'tile.png', true)).rejects.toThrow(
      errorText('IMAGE_NOT_FOUND', 'tile.png'),
    );
    expect(setStarred).not.toHaveBeenCalled();
  });
});

/** A file store whose removals write what happens to `steps`. */
function filesNoting(steps: string[], failCommitOf?: string): FileStore {
  return strictFake<FileStore>('files', {
    prepareRemoval: (owner: string, area: FileArea, name: string): Promise<PendingRemoval> => {
      steps.push(`aside ${owner}/${area}/${name}`);
      return Promise.resolve({
        commit: () => {
          steps.push(`delete ${area}/${name}`);
          return name === failCommitOf ? Promise.reject(new Error('disk gone')) : Promise.resolve();
        },
        rollback: () => {
          steps.push(`restore ${area}/${name}`);
          return Promise.resolve();
        },
      });
    },
  });
}

describe('ImageService.remove', () => {
  const tile = image({ id: 7, filename: 'tile.png' });

  it('cancels the HD jobs of an LD image, moves its files aside, deletes the row, then the files', async () => {
    const steps: string[] = [];
    const jobs: ImageJobs = {
      cancelForImage: (owner, filename) => {
        steps.push(`cancel HD jobs of ${owner.username}/${filename}`);
        return Promise.resolve();
      },
    };
    const images = strictFake<ImageRepository>('images', {
      find: findIn([tile]),
      remove: (ownerId, ids) => {
        steps.push(`remove rows ${ownerId}:${ids.join(',')}`);
        return Promise.resolve(ids.length);
      },
    });
    await new ImageService(images, filesNoting(steps), silentLogger, jobs).remove(
      alice,
      'ld',
      'tile.png',
    );
    expect(steps).toEqual([
      'cancel HD jobs of alice/tile.png',
      'aside alice/ld/tile.png',
      'aside alice/ld-thumbnails/tile.png.webp',
      'remove rows 1:7',
      'delete ld/tile.png',
      'delete ld-thumbnails/tile.png.webp',
    ]);
  });

  it('cancels no jobs for an HD image', async () => {
    const steps: string[] = [];
    const big = image({ id: 8, kind: 'hd', filename: 'tile_120x120.png' });
    const images = strictFake<ImageRepository>('images', {
      find: findIn([big]),
      remove: () => Promise.resolve(1),
    });
    // noJobs fails on any call.
    await new ImageService(images, filesNoting(steps), silentLogger, noJobs).remove(
      alice,
      'hd',
      'tile_120x120.png',
    );
    expect(steps).toEqual([
      'aside alice/hd/tile_120x120.png',
      'aside alice/hd-thumbnails/tile_120x120.png.webp',
      'delete hd/tile_120x120.png',
      'delete hd-thumbnails/tile_120x120.png.webp',
    ]);
  });

  it('puts the files back when the row cannot be deleted, and says why', async () => {
    const steps: string[] = [];
    const images = strictFake<ImageRepository>('images', {
      find: findIn([tile]),
      remove: () => Promise.reject(new Error('database is locked')),
    });
    const jobs: ImageJobs = { cancelForImage: () => Promise.resolve() };
    await expect(
      new ImageService(images, filesNoting(steps), silentLogger, jobs).remove(
        alice,
        'ld',
        'tile.png',
      ),
    ).rejects.toThrow('database is locked');
    expect(steps).toEqual([
      'aside alice/ld/tile.png',
      'aside alice/ld-thumbnails/tile.png.webp',
      'restore ld-thumbnails/tile.png.webp',
      'restore ld/tile.png',
    ]);
  });

  it('counts the image deleted once its row is gone, even if a file cannot be deleted', async () => {
    const steps: string[] = [];
    const images = strictFake<ImageRepository>('images', {
      find: findIn([tile]),
      remove: () => Promise.resolve(1),
    });
    const jobs: ImageJobs = { cancelForImage: () => Promise.resolve() };
    const service = new ImageService(images, filesNoting(steps, 'tile.png'), silentLogger, jobs);
    await expect(service.remove(alice, 'ld', 'tile.png')).resolves.toBeUndefined();
    expect(steps).toContain('delete ld-thumbnails/tile.png.webp');
  });

  it("refuses another user's image as not found, touching no file and no job", async () => {
    const images = strictFake<ImageRepository>('images', {
      find: findIn([image({ id: 9, ownerId: bob.id, filename: 'tile.png' })]),
    });
    // Files and jobs are fakes with no methods: any call would fail the test.
    const service = new ImageService(images, strictFake('files'), silentLogger, noJobs);
    await expect(service.remove(alice, 'ld', 'tile.png')).rejects.toThrow(
      errorText('IMAGE_NOT_FOUND', 'tile.png'),
    );
  });
});

describe('ImageService.refresh', () => {
  const stored = (name: string): StoredFile => ({
    name,
    bytes: 1,
    modifiedAt: new Date('2026-02-03T04:05:06.000Z'),
  });

  it('indexes image files placed in the folder, skips other files, forgets vanished ones', async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#a0522d' },
    })
      .png()
      .toBuffer();
    const placed = withPngText(png, 'metadata', JSON.stringify({ seed: 42 }));
    const contents: Record<string, Buffer> = {
      'placed.png': placed,
      'notes.txt': Buffer.from('not an image'),
      'known.png': png,
    };
    const written: string[] = [];
    const removed: string[] = [];
    const files = strictFake<FileStore>('files', {
      list: (owner, area) => {
        expect([owner, area]).toEqual(['alice', 'ld']);
        return Promise.resolve(Object.keys(contents).map(stored));
      },
      readBuffer: (_owner, _area, name) => Promise.resolve(contents[name] ?? Buffer.alloc(0)),
      write: (owner, area, name) => {
        written.push(`${owner}/${area}/${name}`);
        return Promise.resolve(stored(name));
      },
      prepareRemoval: (owner, area, name) =>
        Promise.resolve({
          commit: () => {
            removed.push(`${owner}/${area}/${name}`);
            return Promise.resolve();
          },
          rollback: () => Promise.resolve(),
        }),
    });
    const insert = vi.fn((record: NewImage) =>
      Promise.resolve({ ...record, id: 20, starred: false, hdRemovedAt: null }),
    );
    const removeRows = vi.fn((_ownerId: number, ids: readonly number[]) =>
      Promise.resolve(ids.length),
    );
    const images = strictFake<ImageRepository>('images', {
      filenames: () =>
        Promise.resolve(
          new Map([
            ['known.png', 3],
            ['vanished.png', 4],
          ]),
        ),
      insert,
      remove: removeRows,
    });

    const service = new ImageService(images, files, silentLogger, noJobs);
    await expect(service.refresh(alice)).resolves.toEqual({ added: 1, removed: 1 });

    expect(insert).toHaveBeenCalledTimes(1);
    expect(insert).toHaveBeenCalledWith({
      ownerId: alice.id,
      kind: 'ld',
      filename: 'placed.png',
      sourceImageId: null,
      width: 40,
      height: 30,
      bytes: placed.length,
      metadata: { seed: 42 },
      createdAt: '2026-02-03T04:05:06.000Z',
    });
    expect(written).toEqual(['alice/ld-thumbnails/placed.png.webp']);
    expect(removed).toEqual(['alice/ld-thumbnails/vanished.png.webp']);
    expect(removeRows).toHaveBeenCalledWith(alice.id, [4]);
  });
});
