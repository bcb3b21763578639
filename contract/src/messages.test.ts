import { describe, expect, it } from 'vitest';
import { HD_SIZES } from './hd-sizes.js';
import {
  GENERATION_STATUSES,
  baseResponseSchema,
  buildHdCommand,
  commandSchemas,
  envelopeSchema,
  fileNameSchema,
  isSafeFileName,
  hdStatusMessageSchema,
  listLowDefinitionResponseSchema,
  listTagResponseSchema,
  createTagResponseSchema,
  responseSchemas,
  tagIdSchema,
} from './index.js';
import { COMMAND_ACTIONS } from './topics.js';

const envelope = { transactionid: 'tx-1', user: 'alice' };

function ok(schema: { safeParse(value: unknown): { success: boolean } }, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe('command envelope', () => {
  it('[Q3] needs a transactionid of 1 to 128 and a user of 1 to 64 characters', () => {
    expect(ok(envelopeSchema, envelope)).toBe(true);
    expect(ok(envelopeSchema, { ...envelope, transactionid: 't'.repeat(128) })).toBe(true);
    expect(ok(envelopeSchema, { ...envelope, transactionid: 't'.repeat(129) })).toBe(false);
    expect(ok(envelopeSchema, { ...envelope, transactionid: '' })).toBe(false);
    expect(ok(envelopeSchema, { ...envelope, user: 'u'.repeat(64) })).toBe(true);
    expect(ok(envelopeSchema, { ...envelope, user: 'u'.repeat(65) })).toBe(false);
    expect(ok(envelopeSchema, { user: 'alice' })).toBe(false);
  });

  it('[Q3] strips unknown keys', () => {
    expect(commandSchemas['delete-tag'].parse({ ...envelope, id: 't1', extra: 1 })).toEqual({
      ...envelope,
      id: 't1',
    });
  });
});

describe('command payloads', () => {
  it('[Q4] has a schema for every command action', () => {
    expect(Object.keys(commandSchemas).sort()).toEqual([...COMMAND_ACTIONS].sort());
  });

  it('[Q4] accepts a well-formed payload of each request command', () => {
    const samples = {
      'list-low-definition': { ...envelope, page: 1, size: 100, filters: { tags: ['t1'] } },
      'delete-low-definition': { ...envelope, filename: 'a.png' },
      'list-high-definition': { ...envelope, page: 2, size: 100 },
      'delete-high-definition': { ...envelope, filename: 'a_hd.png' },
      'list-tag': { ...envelope, page: 1, size: 10 },
      'create-tag': { ...envelope, id: 't1', name: 'Stone', color: '#ff0000' },
      'update-tag': { ...envelope, id: 't1', name: 'Stone 2', color: '#00ff00' },
      'delete-tag': { ...envelope, id: 't1' },
      'assign-tag': { ...envelope, id: 't1', filename: 'a.png' },
      'unassign-tag': { ...envelope, id: 't1', filename: 'a.png' },
      'refresh-low-definition': envelope,
      'star-low-definition': { ...envelope, filename: 'a.png', starred: true },
    } as const;
    for (const [action, payload] of Object.entries(samples)) {
      expect(commandSchemas[action as keyof typeof samples].parse(payload), action).toEqual(
        payload,
      );
    }
  });

  it('[D12] takes a page from 1 to 1,000,000 and a size from 1 to 500', () => {
    const list = commandSchemas['list-high-definition'];
    expect(ok(list, { ...envelope, page: 1_000_000, size: 500 })).toBe(true);
    expect(ok(list, { ...envelope, page: 1_000_001, size: 100 })).toBe(false);
    expect(ok(list, { ...envelope, page: 0, size: 100 })).toBe(false);
    expect(ok(list, { ...envelope, page: 1.5, size: 100 })).toBe(false);
    expect(ok(list, { ...envelope, page: '1', size: 100 })).toBe(false);
    expect(ok(list, { ...envelope, page: 1, size: 501 })).toBe(false);
    expect(ok(list, { ...envelope, page: 1, size: 0 })).toBe(false);
  });

  it('[T4] filters the LD list by up to 100 tag ids, or none', () => {
    const list = commandSchemas['list-low-definition'];
    const tags = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`);
    expect(ok(list, { ...envelope, page: 1, size: 100 })).toBe(true);
    expect(ok(list, { ...envelope, page: 1, size: 100, filters: {} })).toBe(true);
    expect(ok(list, { ...envelope, page: 1, size: 100, filters: { tags: tags(100) } })).toBe(true);
    expect(ok(list, { ...envelope, page: 1, size: 100, filters: { tags: tags(101) } })).toBe(false);
    expect(ok(list, { ...envelope, page: 1, size: 100, filters: { tags: ['a b'] } })).toBe(false);
  });

  it('[T5] takes tag ids of 1 to 64 letters, digits, _ and -', () => {
    expect(ok(tagIdSchema, '0b6c1f9e-2d4a-4c1e-9f3b-7a2e5d8c1b0a')).toBe(true);
    expect(ok(tagIdSchema, 'A_z-9')).toBe(true);
    expect(ok(tagIdSchema, 'x'.repeat(64))).toBe(true);
    expect(ok(tagIdSchema, 'x'.repeat(65))).toBe(false);
    expect(ok(tagIdSchema, '')).toBe(false);
    expect(ok(tagIdSchema, 'a/b')).toBe(false);
  });

  it('[T9] refuses a tag name that breaks the rules, with the spec text', () => {
    const result = commandSchemas['create-tag'].safeParse({
      ...envelope,
      id: 't1',
      name: 'hot🔥',
      color: '#000000',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Use only standard characters (no emojis or special symbols)',
    ]);
    const tooLong = { ...envelope, id: 't1', name: 'a'.repeat(16), color: '#000000' };
    expect(ok(commandSchemas['update-tag'], tooLong)).toBe(false);
  });

  it('[T9] stores tag names composed (NFC)', () => {
    const parsed = commandSchemas['create-tag'].parse({
      ...envelope,
      id: 't1',
      name: 'Cafe\u0301',
      color: '#000000',
    });
    expect(parsed.name).toBe('Caf\u00e9');
  });

  it('takes hex tag colours only: other text would become CSS the browser fetches', () => {
    const create = (color: string) =>
      ok(commandSchemas['create-tag'], { ...envelope, id: 't1', name: 'Stone', color });
    for (const color of ['#abc', '#A1B2C3', '#a1b2c3d4']) expect(create(color), color).toBe(true);
    for (const color of [
      'url(http://evil.example/x.png)',
      'red',
      '',
      '#abcd',
      '#a1b2c3;background:url(x)',
      '#gggggg',
      'c'.repeat(65),
    ]) {
      expect(create(color), color).toBe(false);
    }
  });

  it('takes file names, never paths', () => {
    for (const name of ['a.png', 'my image (1).webp', 'ñ.png', 'n'.repeat(255)]) {
      expect(ok(fileNameSchema, name), name).toBe(true);
    }
    for (const name of [
      '',
      '.',
      '..',
      '.hidden',
      'a/b.png',
      'a\\b.png',
      'a\u0000b',
      'a\nb',
      'n'.repeat(256),
    ]) {
      expect(ok(fileNameSchema, name), JSON.stringify(name)).toBe(false);
    }
    expect(isSafeFileName('a.png')).toBe(true);
    expect(isSafeFileName('../a.png')).toBe(false);
  });
});

describe('HD command', () => {
  const command = buildHdCommand({
    id: 'hd-1',
    user: 'alice',
    image: 'stone.png',
    metadata: { kseed: 123 },
    sizeLabel: '30x30',
  });

  it('[H1] [H2] [M7] builds the generate-image payload, every value a string', () => {
    expect(command).toEqual({
      id: 'hd-1',
      user: 'alice',
      image: 'stone.png',
      rescale_factor_cr711: '1.74',
      scale_by_latent707: '1',
      rescale_factor_cr701: '1.5',
      scale_by_image692: '1.4',
      use_fixed_seed: 'true',
      fixed_seed_value: '123',
      seed: '123',
    });
    expect(Object.values(command).every((value) => typeof value === 'string')).toBe(true);
    expect('transactionid' in command).toBe(false);
  });

  it("[M7] falls back to seed '10' when the metadata has none", () => {
    const fallback = buildHdCommand({
      id: 'hd-2',
      user: 'alice',
      image: 'stone.png',
      metadata: {},
      sizeLabel: '320x140',
    });
    expect(fallback.seed).toBe('10');
    expect(fallback.fixed_seed_value).toBe('10');
    expect(fallback.rescale_factor_cr701).toBe('3.51');
    expect(fallback.scale_by_image692).toBe('4');
  });

  it('[H1] accepts the command built for every HD size', () => {
    for (const size of HD_SIZES) {
      const built = buildHdCommand({ ...command, metadata: {}, sizeLabel: size.label });
      expect(commandSchemas['generate-image'].parse(built), size.label).toEqual(built);
    }
  });

  it('[H2] refuses factors that are not an HD size of the table', () => {
    const schema = commandSchemas['generate-image'];
    expect(ok(schema, { ...command, scale_by_image692: '5' })).toBe(false);
    expect(ok(schema, { ...command, rescale_factor_cr711: '2' })).toBe(false);
    expect(ok(schema, { ...command, scale_by_latent707: '1.5' })).toBe(false);
    expect(ok(schema, { ...command, rescale_factor_cr701: 'abc' })).toBe(false);
  });

  it("[H1] refuses non-string values and use_fixed_seed other than 'true'", () => {
    const schema = commandSchemas['generate-image'];
    expect(ok(schema, { ...command, use_fixed_seed: 'false' })).toBe(false);
    expect(ok(schema, { ...command, seed: 123 })).toBe(false);
    expect(ok(schema, { ...command, rescale_factor_cr701: 1.5 })).toBe(false);
    expect(ok(schema, { ...command, seed: '-1' })).toBe(false);
    expect(ok(schema, { ...command, image: '../stone.png' })).toBe(false);
  });
});

describe('answers', () => {
  it('[Q3] every answer carries transactionid, user and success; a failure adds error', () => {
    expect(baseResponseSchema.parse({ ...envelope, success: true })).toEqual({
      ...envelope,
      success: true,
    });
    expect(
      baseResponseSchema.parse({ ...envelope, success: false, error: 'Tag not found' }).error,
    ).toBe('Tag not found');
    expect(ok(baseResponseSchema, { ...envelope, success: 'yes' })).toBe(false);
  });

  it('[Q4] reads a page of LD images with their tags', () => {
    const answer = {
      ...envelope,
      success: true,
      page: 1,
      size: 100,
      total: 1,
      images: [
        {
          filename: 'a.png',
          thumbnail: '/api/images/ld/thumbnail/a.png',
          metadata: { kseed: 1 },
          tags: ['t1'],
        },
      ],
    };
    expect(listLowDefinitionResponseSchema.parse(answer)).toEqual(answer);
    expect(
      ok(listLowDefinitionResponseSchema, { ...answer, images: [{ filename: 'a.png' }] }),
    ).toBe(false);
  });

  it('[Q4] reads a page of tags and the id of a created tag', () => {
    const tags = [{ id: 't1', name: 'Stone', color: '#112233' }];
    const answer = { ...envelope, success: true, page: 1, size: 10, total: 1, tags };
    expect(listTagResponseSchema.parse(answer).tags).toEqual(tags);
    expect(createTagResponseSchema.parse({ ...envelope, success: true, id: 't1' }).id).toBe('t1');
  });

  it('[Q4] has an answer schema for every command except generate-image', () => {
    expect(Object.keys(responseSchemas).sort()).toEqual(
      COMMAND_ACTIONS.filter((action) => action !== 'generate-image').sort(),
    );
  });
});

describe('HD status messages', () => {
  it('[P4] knows the statuses queued, in_progress, finished and error', () => {
    expect(GENERATION_STATUSES).toEqual(['queued', 'in_progress', 'finished', 'error']);
  });

  it('[H3] reads id, image, status and percent, plus output_image or error', () => {
    const finished = {
      id: 'hd-1',
      image: 'a.png',
      status: 'finished',
      percent: 100,
      output_image: 'a_hd.png',
    };
    expect(hdStatusMessageSchema.parse(finished)).toEqual(finished);
    const failed = { id: 'hd-1', image: 'a.png', status: 'error', percent: 40, error: 'boom' };
    expect(hdStatusMessageSchema.parse(failed)).toEqual(failed);
  });

  it('[H10] refuses an unknown status and a percent outside 0 to 100', () => {
    const base = { id: 'hd-1', image: 'a.png', percent: 0 };
    expect(ok(hdStatusMessageSchema, { ...base, status: 'done' })).toBe(false);
    expect(ok(hdStatusMessageSchema, { ...base, status: 'in_progress', percent: 100 })).toBe(true);
    expect(ok(hdStatusMessageSchema, { ...base, status: 'in_progress', percent: 100.5 })).toBe(
      false,
    );
    expect(ok(hdStatusMessageSchema, { ...base, status: 'in_progress', percent: -1 })).toBe(false);
  });
});
