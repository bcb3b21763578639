import { errorText, MAX_TAGS_PER_USER, TEXTS } from '@tessera/contract';
import { describe, expect, it, vi } from 'vitest';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { TagRecord, TagRepository } from '../store/tags.js';
import { strictFake } from '../testing/strict-fake.js';
import type { Owner } from '../owner.js';
import { TagService } from './tags.js';

// The tag rules on fakes of the two repositories: no database, no broker, no server.

const alice: Owner = { id: 1, username: 'alice' };
const bob: Owner = { id: 2, username: 'bob' };

const stone: TagRecord = { id: 'tag-stone', name: 'Stone', color: '#808080' };
const wood: TagRecord = { id: 'tag-wood', name: 'Wood', color: '#8b4513' };

/** A tags table holding these rows, answering by owner as the real one does; writes recorded. */
function tagsHolding(rows: { ownerId: number; tag: TagRecord }[]) {
  const of = (ownerId: number) => rows.filter((r) => r.ownerId === ownerId).map((r) => r.tag);
  return strictFake<TagRepository>('tags', {
    find: (ownerId, id) => Promise.resolve(of(ownerId).find((t) => t.id === id)),
    findByName: (ownerId, name) => Promise.resolve(of(ownerId).find((t) => t.name === name)),
    // As the real one: nothing written when the owner already has `cap` tags.
    insert: vi.fn((ownerId: number, _tag: TagRecord, cap = Infinity) =>
      Promise.resolve(of(ownerId).length < cap),
    ),
    update: vi.fn(() => Promise.resolve(true)),
  });
}

function ldImage(ownerId: number, filename: string, id: number): ImageRecord {
  return {
    id,
    ownerId,
    kind: 'ld',
    filename,
    sourceImageId: null,
    width: 64,
    height: 64,
    bytes: 100,
    metadata: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    starred: false,
    hdRemovedAt: null,
  };
}

/** An images table holding these images; tag links recorded. */
function imagesHolding(held: ImageRecord[]) {
  return strictFake<ImageRepository>('images', {
    find: (ownerId, kind, filename) =>
      Promise.resolve(
        held.find((i) => i.ownerId === ownerId && i.kind === kind && i.filename === filename),
      ),
    assignTag: vi.fn(() => Promise.resolve()),
    unassignTag: vi.fn(() => Promise.resolve()),
  });
}

describe('TagService.create', () => {
  it('stores a new tag under its owner with the id the client chose', async () => {
    const tags = tagsHolding([]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.create(alice, stone)).resolves.toEqual(stone);
    expect(tags.insert).toHaveBeenCalledWith(alice.id, stone, MAX_TAGS_PER_USER);
  });

  it("refuses a name the owner's other tag has, and stores nothing", async () => {
    const tags = tagsHolding([{ ownerId: alice.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.create(alice, { ...wood, name: 'Stone' })).rejects.toThrow(
      TEXTS.tagDuplicate('Stone'),
    );
    expect(tags.insert).not.toHaveBeenCalled();
  });

  it("allows a name another user's tag has: names are unique per owner", async () => {
    const tags = tagsHolding([{ ownerId: bob.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await service.create(alice, { ...wood, name: 'Stone' });
    expect(tags.insert).toHaveBeenCalledWith(
      alice.id,
      { ...wood, name: 'Stone' },
      MAX_TAGS_PER_USER,
    );
  });

  it('refuses an id the owner already uses, and stores nothing', async () => {
    const tags = tagsHolding([{ ownerId: alice.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.create(alice, { ...stone, name: 'Other' })).rejects.toThrow(
      errorText('TAG_ID_TAKEN', stone.id),
    );
    expect(tags.insert).not.toHaveBeenCalled();
  });

  it('refuses a tag past the per-user cap with a clear text, and stores nothing (issue 22, part 4)', async () => {
    const held = Array.from({ length: MAX_TAGS_PER_USER }, (_, i) => ({
      ownerId: alice.id,
      tag: { id: `tag-${i}`, name: `Tag ${i}`, color: '#000000' },
    }));
    const tags = tagsHolding([...held, { ownerId: bob.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.create(alice, wood)).rejects.toThrow(
      errorText('TAG_LIMIT_REACHED', MAX_TAGS_PER_USER),
    );
    // One fewer, or another owner's tags, leave room.
    await expect(service.create(bob, wood)).resolves.toEqual(wood);
    const room = tagsHolding(held.slice(1));
    await expect(new TagService(room, strictFake('images')).create(alice, wood)).resolves.toEqual(
      wood,
    );
  });
});

describe('TagService.update', () => {
  it('renames and recolours an own tag, keeping its name allowed for itself', async () => {
    const tags = tagsHolding([{ ownerId: alice.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await service.update(alice, { ...stone, color: '#000000' });
    expect(tags.update).toHaveBeenCalledWith(alice.id, { ...stone, color: '#000000' });
  });

  it("refuses to take the name of the owner's other tag", async () => {
    const tags = tagsHolding([
      { ownerId: alice.id, tag: stone },
      { ownerId: alice.id, tag: wood },
    ]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.update(alice, { ...wood, name: 'Stone' })).rejects.toThrow(
      TEXTS.tagDuplicate('Stone'),
    );
    expect(tags.update).not.toHaveBeenCalled();
  });

  it("cannot reach another user's tag: it is not found", async () => {
    const tags = tagsHolding([{ ownerId: bob.id, tag: stone }]);
    const service = new TagService(tags, strictFake('images'));
    await expect(service.update(alice, stone)).rejects.toThrow(
      errorText('TAG_NOT_FOUND', stone.id),
    );
    expect(tags.update).not.toHaveBeenCalled();
  });
});

describe('TagService.remove', () => {
  it('asks the store to remove the tag of this owner', async () => {
    const remove = vi.fn(() => Promise.resolve(true));
    const service = new TagService(strictFake('tags', { remove }), strictFake('images'));
    await service.remove(alice, stone.id);
    expect(remove).toHaveBeenCalledWith(alice.id, stone.id);
  });

  it('says the tag was not found when the store had none to remove', async () => {
    const remove = () => Promise.resolve(false);
    const service = new TagService(strictFake('tags', { remove }), strictFake('images'));
    await expect(service.remove(alice, stone.id)).rejects.toThrow(
      errorText('TAG_NOT_FOUND', stone.id),
    );
  });
});

describe('TagService.assign and unassign', () => {
  const tile = ldImage(alice.id, 'tile.png', 7);

  it("links the owner's tag to the owner's LD image, and unlinks it", async () => {
    const images = imagesHolding([tile]);
    const service = new TagService(tagsHolding([{ ownerId: alice.id, tag: stone }]), images);
    await service.assign(alice, stone.id, 'tile.png');
    expect(images.assignTag).toHaveBeenCalledWith(alice.id, tile.id, stone.id);
    await service.unassign(alice, stone.id, 'tile.png');
    expect(images.unassignTag).toHaveBeenCalledWith(alice.id, tile.id, stone.id);
  });

  it("refuses another user's image as not found, linking nothing", async () => {
    const images = imagesHolding([ldImage(bob.id, 'tile.png', 8)]);
    const service = new TagService(tagsHolding([{ ownerId: alice.id, tag: stone }]), images);
    await expect(service.assign(alice, stone.id, 'tile.png')).rejects.toThrow(
      errorText('IMAGE_NOT_FOUND', 'tile.png'),
    );
    expect(images.assignTag).not.toHaveBeenCalled();
  });

  it('refuses an HD image: tags belong to LD images', async () => {
    const images = imagesHolding([{ ...tile, kind: 'hd' }]);
    const service = new TagService(tagsHolding([{ ownerId: alice.id, tag: stone }]), images);
    await expect(service.assign(alice, stone.id, 'tile.png')).rejects.toThrow(
      errorText('IMAGE_NOT_FOUND', 'tile.png'),
    );
  });

  it("refuses another user's tag as not found, linking nothing", async () => {
    const images = imagesHolding([tile]);
    const service = new TagService(tagsHolding([{ ownerId: bob.id, tag: stone }]), images);
    await expect(service.assign(alice, stone.id, 'tile.png')).rejects.toThrow(
      errorText('TAG_NOT_FOUND', stone.id),
    );
    await expect(service.unassign(alice, stone.id, 'tile.png')).rejects.toThrow(
      errorText('TAG_NOT_FOUND', stone.id),
    );
    expect(images.assignTag).not.toHaveBeenCalled();
    expect(images.unassignTag).not.toHaveBeenCalled();
  });
});

describe('TagService.list', () => {
  it("pages the owner's tags from the store", async () => {
    const page = vi.fn(() => Promise.resolve({ tags: [stone], total: 3 }));
    const service = new TagService(strictFake('tags', { page }), strictFake('images'));
    await expect(service.list(alice, 2, 1)).resolves.toEqual({ tags: [stone], total: 3 });
    expect(page).toHaveBeenCalledWith(alice.id, 2, 1);
  });
});
