/**
 * Seeded hostile MQTT command payloads for the adversarial suite: malformed JSON, wrong types,
 * huge numbers, odd unicode, deep nesting, path tricks and other users' names and ids. Each case
 * says whether its transactionid is readable (so the service must answer it).
 */
import { COMMAND_ACTIONS, type CommandAction } from '@tessera/contract';
import { MAX_COMMAND_BYTES } from '../messaging/replies.js';

export interface HostileCase {
  action: string;
  payload: Buffer;
  /** The transactionid the service must answer, when the payload lets it be read. */
  answerId: string | undefined;
  /** What was done to the payload, for failure messages. */
  family: string;
}

/** The names the payloads aim at: the sender's own, and another user's. */
export interface Targets {
  self: string;
  other: string;
  ownFiles: string[];
  ownTags: string[];
  otherFiles: string[];
  otherTags: string[];
}

/** mulberry32: small, fast and the same on every machine for a given seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UNKNOWN_ACTIONS = ['drop-tables', 'LIST-TAG', 'list-tags', 'generate-images', 'admin'];
const HUGE_NUMBERS = [
  '1e308',
  '-1e308',
  '1e400',
  '9007199254740993',
  '-0',
  '-1',
  '4294967296',
  '1.5',
  '0',
  '1e-400',
];
const ODD_STRINGS = [
  '\u202Eevil.png',
  'a\u200Bb',
  '\uD800',
  '\uDFFF\uD800',
  'Z\u0337\u0322a\u0335',
  '🎨'.repeat(40),
  '\u0000',
  'ＡＢＣ',
  'İ',
  '\uFEFF',
  'e\u0301',
  'x'.repeat(300),
  '<script>alert(1)</script>',
  "'; DROP TABLE images; --",
  '%s%n',
  '${process.env}',
];
const PATH_TRICKS = [
  '../{other}/ld/{otherFile}',
  '..\\{other}\\ld\\{otherFile}',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '{ownFile}/..',
  './{ownFile}',
  '{ownFile}\u0000.txt',
  '%2e%2e%2f{other}',
  'ld/../../../{other}/ld/{otherFile}',
  '....//....//{otherFile}',
  ' {ownFile}',
  '{ownFile} ',
  '.',
  '..',
  '',
  `${'a'.repeat(300)}.png`,
  '{other}/ld/{otherFile}',
  '~/{ownFile}',
];

export function hostileCases(count: number, seed: number, targets: Targets): HostileCase[] {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const fill = (text: string) =>
    text
      .replaceAll('{other}', targets.other)
      .replaceAll('{otherFile}', pick(targets.otherFiles))
      .replaceAll('{ownFile}', pick(targets.ownFiles));

  const otherIds = [
    targets.other,
    targets.other.toUpperCase(),
    `${targets.self} `,
    `${targets.self}\u0000`,
    targets.self.toUpperCase(),
    '',
    'admin',
    '$tessera-service',
    '#',
    '+',
  ];
  const hostileValue = (): unknown => {
    switch (int(9)) {
      case 0:
        return pick(ODD_STRINGS);
      case 1:
        return fill(pick(PATH_TRICKS));
      case 2:
        return pick(otherIds);
      case 3:
        return random() < 0.5 ? pick(targets.otherTags) : pick(targets.otherFiles);
      case 4:
        return [pick(ODD_STRINGS), int(10), null];
      case 5:
        return { $gt: '', __proto__: { admin: true } };
      case 6:
        return random() < 0.5;
      case 7:
        return null;
      default:
        return int(2 ** 31) * (random() < 0.5 ? -1 : 1);
    }
  };

  const base = (action: string, n: number): Record<string, unknown> => {
    const ownFile = pick(targets.ownFiles);
    const ownTag = pick(targets.ownTags);
    const fields: Record<string, Record<string, unknown>> = {
      'list-low-definition': {
        page: 1,
        size: 100,
        filters: { tags: [ownTag] },
        ...(n % 2 === 0 && { search: { text: 'tile', starred: true, sort: 'name' } }),
      },
      'delete-low-definition': { filename: ownFile },
      'list-high-definition': { page: 1, size: 100 },
      'delete-high-definition': { filename: 'hd-none.png' },
      'list-tag': { page: 1, size: 10 },
      'create-tag': { id: `fz-tag-${n}`, name: `Fuzz ${n % 1000}`, color: '#123456' },
      'update-tag': { id: ownTag, name: 'Alpha', color: '#abcdef' },
      'delete-tag': { id: ownTag },
      'assign-tag': { id: ownTag, filename: ownFile },
      'unassign-tag': { id: ownTag, filename: ownFile },
      'refresh-low-definition': {},
      'star-low-definition': { filename: ownFile, starred: n % 2 === 0 },
    };
    if (action === 'generate-image')
      // Aimed at images the sender does not have, so no order can start real work.
      return {
        id: `fz-order-${n}`,
        user: targets.self,
        image: random() < 0.5 ? pick(targets.otherFiles) : 'ghost.png',
        rescale_factor_cr711: '1.74',
        scale_by_latent707: '1',
        rescale_factor_cr701: '2',
        scale_by_image692: '1',
        use_fixed_seed: 'true',
        fixed_seed_value: '10',
        seed: '10',
      };
    return { transactionid: `fz-${n}`, user: targets.self, ...(fields[action] ?? { page: 1 }) };
  };

  const cases: HostileCase[] = [];
  for (let n = 0; n < count; n++) {
    const action =
      random() < 0.03 ? pick(UNKNOWN_ACTIONS) : pick(COMMAND_ACTIONS as readonly CommandAction[]);
    const body = base(action, n);
    const keys = Object.keys(body);
    let text: string | undefined;
    let headId: string | undefined;
    const family = pick([
      'extra-field',
      'wrong-type',
      'missing-field',
      'huge-number',
      'odd-unicode',
      'path-trick',
      'other-user',
      'deep-nesting',
      'prototype-keys',
      'truncated',
      'garbage',
      'not-an-object',
      'duplicate-keys',
      'hostile-transactionid',
      'oversized',
    ] as const);
    const key = pick(keys);
    switch (family) {
      case 'extra-field':
        body[pick(['pad', 'admin', 'owner_id', 'path', 'userId'])] = hostileValue();
        break;
      case 'wrong-type':
        body[key] = hostileValue();
        break;
      case 'missing-field':
        Reflect.deleteProperty(body, key);
        break;
      case 'huge-number': {
        const numberKey = pick(['page', 'size', key]);
        body[numberKey] = '@@NUMBER@@';
        text = JSON.stringify(body).replace('"@@NUMBER@@"', pick(HUGE_NUMBERS));
        break;
      }
      case 'odd-unicode':
        body[pick(['name', 'id', 'filename', 'image', 'color', key])] = pick(ODD_STRINGS);
        break;
      case 'path-trick':
        body[pick(['filename', 'image', 'id'])] = fill(pick(PATH_TRICKS));
        break;
      case 'other-user':
        if (random() < 0.5) body.user = pick(otherIds);
        else if ('filename' in body || 'image' in body)
          body['filename' in body ? 'filename' : 'image'] = pick(targets.otherFiles);
        else body.id = pick(targets.otherTags);
        break;
      case 'deep-nesting': {
        const depth = 10 + int(3000);
        body[pick(['filters', 'page', 'name', key])] = '@@DEEP@@';
        const open = random() < 0.5 ? '[' : '{"a":';
        const close = open === '[' ? ']' : '}';
        text = JSON.stringify(body).replace(
          '"@@DEEP@@"',
          `${open.repeat(depth)}1${close.repeat(depth)}`,
        );
        break;
      }
      case 'prototype-keys':
        text = JSON.stringify(body).replace(
          /^\{/,
          pick([
            '{"__proto__":{"user":"{other}","isAdmin":true},',
            '{"constructor":{"prototype":{"polluted":1}},',
            '{"__proto__":null,',
          ]).replace('{other}', targets.other),
        );
        break;
      case 'truncated': {
        const whole = JSON.stringify(body);
        text = whole.slice(0, int(whole.length));
        break;
      }
      case 'garbage':
        text = undefined;
        break;
      case 'not-an-object':
        text = pick([
          'null',
          '[]',
          `[${JSON.stringify(body)}]`,
          '"transactionid"',
          '42',
          'true',
          '',
        ]);
        break;
      case 'duplicate-keys':
        text = JSON.stringify(body).replace(/\}$/, `,"user":${JSON.stringify(pick(otherIds))}}`);
        break;
      case 'hostile-transactionid':
        body.transactionid = pick([
          `fz-${n}-${pick(ODD_STRINGS).slice(0, 60)}`,
          `fz-${n}-${'x'.repeat(200)}`,
          n,
          { id: `fz-${n}` },
          [`fz-${n}`],
          '',
          null,
        ]);
        break;
      case 'oversized':
        body.pad = 'x'.repeat(MAX_COMMAND_BYTES + int(100_000));
        break;
    }
    let payload: Buffer;
    if (family === 'garbage') {
      payload = Buffer.from(Array.from({ length: 1 + int(200) }, () => int(256)));
    } else {
      text ??= JSON.stringify(body);
      payload = Buffer.from(text, 'utf8');
      // The service reads a transactionid from the head of what it cannot parse.
      const id = body.transactionid;
      const prefix = typeof id === 'string' ? `{"transactionid":${JSON.stringify(id)}` : undefined;
      if (prefix !== undefined && text.startsWith(prefix)) headId = id as string;
    }
    cases.push({ action, payload, answerId: expectedAnswer(action, payload, headId), family });
  }
  return cases;
}

/** A payload parsed as the spec reads it; otherwise what its intact head says. */
function expectedAnswer(
  action: string,
  payload: Buffer,
  headId: string | undefined,
): string | undefined {
  // generate-image has no transactionid and no response (SPEC §7).
  if (action === 'generate-image') return undefined;
  const readable = (id: unknown) =>
    typeof id === 'string' && id.length >= 1 && id.length <= 128 ? id : undefined;
  if (payload.length <= MAX_COMMAND_BYTES) {
    let value: unknown;
    try {
      value = JSON.parse(payload.toString('utf8'));
    } catch {
      return readable(headId);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return readable((value as { transactionid?: unknown }).transactionid);
  }
  return readable(headId);
}
