import {
  MAX_COMMAND_BYTES,
  parseCommandTopic,
  queryTopic,
  responseTopic,
  type CommandAction,
  type HdStatusMessage,
} from '@tessera/contract';

export { MAX_COMMAND_BYTES };

/** How much of an unparsable or oversized payload is read to find its transactionid. */
const HEAD_BYTES = 4096;
const MAX_TRANSACTION_ID_CHARS = 128;

export interface Answer {
  topic: string;
  payload: string;
}

/** The command's payload as an object, or undefined when it is too large or not a JSON object. */
export function parseCommand(payload: Buffer): object | undefined {
  if (payload.length > MAX_COMMAND_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The transactionid of a parsed command, or of the head of one that could not be parsed. */
export function readTransactionId(body: object | undefined, payload: Buffer): string | undefined {
  const id = body
    ? (body as { transactionid?: unknown }).transactionid
    : readHead(payload).transactionid;
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_TRANSACTION_ID_CHARS
    ? id
    : undefined;
}

/** Where an answer goes: the action's query topic; for an unknown action, `query/<action>/...`. */
export function replyTopic(action: string, user: string): string {
  const known = parseCommandTopic(`command/${action}/user/${user}`);
  return known
    ? responseTopic(known.action as CommandAction, user)
    : `query/${action}/user/${user}`;
}

/**
 * The failure answer to a command refused before it reached its handler, in the shape SPEC §7
 * gives that command: `{transactionid, user, success: false, error}` on its response topic, or
 * for generate-image an error status for the order's id and image. Undefined when the payload
 * names nothing to answer to.
 */
export function refusalOf(topic: string, payload: Buffer, error: string): Answer | undefined {
  const [root, action = '', userLevel, user = ''] = topic.split('/');
  if (root !== 'command' || userLevel !== 'user' || user === '') return undefined;
  const body = parseCommand(payload);
  if (action === 'generate-image') {
    const { id, image } = (body ?? readHead(payload)) as { id?: unknown; image?: unknown };
    if (typeof id !== 'string' || typeof image !== 'string' || id.length > 128) return undefined;
    const status: HdStatusMessage = {
      id,
      image: image.slice(0, 255),
      status: 'error',
      percent: 0,
      error,
    };
    return { topic: queryTopic('status-generate-image', user), payload: JSON.stringify(status) };
  }
  const transactionid = readTransactionId(body, payload);
  if (transactionid === undefined) return undefined;
  return {
    topic: replyTopic(action, user),
    payload: JSON.stringify({ transactionid, user, success: false, error }),
  };
}

// JSON forbids raw control characters inside strings.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\r\n]*/y;

/**
 * The leading top-level fields of a JSON object whose values are strings, numbers or literals,
 * read from the first few KiB only: enough to answer a command that is too large or broken
 * further on. Stops at the first nested value or anything unexpected.
 */
export function readHead(payload: Buffer): Record<string, unknown> {
  const text = payload.subarray(0, HEAD_BYTES).toString('utf8');
  const fields: Record<string, unknown> = {};
  let at = 0;
  const skipSpace = () => {
    SPACE.lastIndex = at;
    SPACE.exec(text);
    at = SPACE.lastIndex;
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) return undefined;
    at = pattern.lastIndex;
    return match[0];
  };
  skipSpace();
  if (text[at] !== '{') return fields;
  at++;
  for (;;) {
    skipSpace();
    const key = token(STRING);
    if (key === undefined) return fields;
    skipSpace();
    if (text[at] !== ':') return fields;
    at++;
    skipSpace();
    const value = token(STRING) ?? token(SCALAR);
    if (value === undefined) return fields;
    Object.defineProperty(fields, JSON.parse(key) as string, {
      value: JSON.parse(value) as unknown,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    skipSpace();
    if (text[at] !== ',') return fields;
    at++;
  }
}
