import { describe, expect, it } from 'vitest';
import { commandSchemas, listLowDefinitionResponseSchema } from './messages.js';
import {
  imageDateKey,
  imageSearchKeys,
  ldSearchSchema,
  seedSearchKey,
  textSearchKey,
} from './search.js';

const envelope = { transactionid: 'tx-1', user: 'alice' };
const list = commandSchemas['list-low-definition'];

describe('the search of list-low-definition (issue 13, feature 8)', () => {
  it("leaves the spec's payload as it was: no search, nothing added", () => {
    const plain = { ...envelope, page: 1, size: 100, filters: { tags: [] } };
    expect(list.parse(plain)).toEqual(plain);
  });

  it('takes text, seed, a date range, starred and a sort, and writes instants in UTC', () => {
    const parsed = list.parse({
      ...envelope,
      page: 1,
      size: 100,
      search: {
        text: 'Stone',
        seed: '42',
        from: '2025-01-01T00:00:00+01:00',
        to: '2025-02-01T00:00:00Z',
        starred: true,
        sort: 'name',
      },
    });
    expect(parsed.search).toEqual({
      text: 'Stone',
      seed: '42',
      from: '2024-12-31T23:00:00.000Z',
      to: '2025-02-01T00:00:00.000Z',
      starred: true,
      sort: 'name',
    });
    expect(ldSearchSchema.parse({})).toEqual({});
  });

  it('refuses hostile or misspelt searches with a message naming the field', () => {
    const refused = (search: unknown) => {
      const result = list.safeParse({ ...envelope, page: 1, size: 100, search });
      expect(result.success, JSON.stringify(search)).toBe(false);
      return result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    };
    expect(refused({ seed: '12a' })).toEqual([['search.seed', 'The seed must be a whole number']]);
    expect(refused({ seed: 42 })?.[0]?.[0]).toBe('search.seed');
    expect(refused({ seed: '1'.repeat(21) })?.[0]?.[0]).toBe('search.seed');
    expect(refused({ sort: 'size' })?.[0]?.[0]).toBe('search.sort');
    expect(refused({ from: '2025-13-01T00:00:00Z' })?.[0]?.[0]).toBe('search.from');
    expect(refused({ to: 'yesterday' })?.[0]?.[0]).toBe('search.to');
    expect(refused({ to: 1_735_689_600_000 })?.[0]?.[0]).toBe('search.to');
    expect(refused({ starred: 'yes' })?.[0]?.[0]).toBe('search.starred');
    expect(refused({ text: 'x'.repeat(2001) })?.[0]?.[0]).toBe('search.text');
    expect(refused({ text: { $regex: '.*' } })?.[0]?.[0]).toBe('search.text');
    expect(refused({ sortBy: 'name' })?.[0]?.[1]).toMatch(/sortBy/);
    expect(refused('stone')?.[0]?.[0]).toBe('search');
    expect(refused([])?.[0]?.[0]).toBe('search');
  });

  it("keeps each image's starred in the answer when the server sends it", () => {
    const answer = {
      ...envelope,
      success: true,
      page: 1,
      size: 100,
      total: 1,
      images: [{ filename: 'a.png', thumbnail: 't', metadata: {}, tags: [], starred: true }],
    };
    expect(listLowDefinitionResponseSchema.parse(answer).images[0]?.starred).toBe(true);
  });
});

describe('search keys', () => {
  it('folds case and accents, so a search for "ceramica" finds "Cerámica"', () => {
    expect(textSearchKey('Cerámica ÑANDÚ')).toBe('ceramica nandu');
    expect(textSearchKey('Cafe\u0301')).toBe(textSearchKey('Café'));
  });

  it('reads one seed however many leading zeros it has', () => {
    expect(seedSearchKey('007')).toBe('7');
    expect(seedSearchKey('0')).toBe('0');
    expect(seedSearchKey('4294967295')).toBe('4294967295');
  });

  it('dates an image by its metadata (epoch seconds, ms or ISO), else by when it was added', () => {
    const added = '2025-05-05T05:05:05.000Z';
    expect(imageDateKey({ created_at: 1_735_732_800 }, added)).toBe('2025-01-01T12:00:00.000Z');
    expect(imageDateKey({ created_at: 1_735_732_800_000 }, added)).toBe('2025-01-01T12:00:00.000Z');
    expect(imageDateKey({ creation_date: '2025-03-01T10:00:00+02:00' }, added)).toBe(
      '2025-03-01T08:00:00.000Z',
    );
    expect(imageDateKey({}, added)).toBe(added);
    expect(imageDateKey({ created_at: 'not a date' }, added)).toBe(added);
    // Years past 9999 would not sort as text; such an image counts by when it was added.
    expect(imageDateKey({ created_at: 8.64e15 }, added)).toBe(added);
  });

  it('takes the positive prompt, the seed (kseed first) and the date from the metadata', () => {
    expect(
      imageSearchKeys(
        { cliptextencode_585: 'Piedra Caliza', kseed: '0042', seed: 7, created_at: 0 },
        '2025-01-01T00:00:00.000Z',
      ),
    ).toEqual({ prompt: 'piedra caliza', seed: '42', datedAt: '1970-01-01T00:00:00.000Z' });
    expect(imageSearchKeys({}, '2025-01-01T00:00:00.000Z')).toEqual({
      prompt: '',
      seed: null,
      datedAt: '2025-01-01T00:00:00.000Z',
    });
  });
});
