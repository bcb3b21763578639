import { randomBytes } from 'node:crypto';

/**
 * JSON text read from the store as it was written (an image's metadata is stored by
 * JSON.stringify), to be written out again whole. A list page of 100 images is ~80 kB, most of
 * it metadata: parsing it only to stringify it again was a third of a page's time (issue 28,
 * part 2). `stringifyPassingThrough` copies the text into the message; anywhere else
 * (JSON.stringify, Fastify's serializer, a test's comparison) it stands for the parsed value.
 */
export class JsonText {
  private constructor(readonly text: string) {}

  /**
   * Text that is an object's JSON: what `JSON.stringify(object)` wrote. Anything that does not
   * even look like one (an empty or hand-edited column) stands for `{}`, as a metadata parse that
   * failed always has; a text is not parsed here, that is the point.
   */
  static ofObject(text: string): JsonText {
    const trimmed = text.trim();
    return new JsonText(trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed : '{}');
  }

  /** The parsed value: called by JSON.stringify, and by `stringifyPassingThrough` (a mark). */
  toJSON(): unknown {
    if (collecting) {
      collecting.push(this.text);
      return `${MARK}${collecting.length - 1}`;
    }
    return this.value();
  }

  value(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/**
 * A mark no other string of a message can hold: a control character (which JSON writes as the
 * six characters `\u0001`), then a random nonce of this process that never leaves it.
 */
const NONCE = randomBytes(12).toString('hex');
const MARK = `\u0001json-text:${NONCE}:`;
const WRITTEN_MARK = new RegExp(`"\\\\u0001json-text:${NONCE}:(\\d+)"`, 'g');

let collecting: string[] | undefined;

/** `JSON.stringify(value)`, with each JsonText in it written as its own text, unparsed. */
export function stringifyPassingThrough(value: unknown): string {
  const texts: string[] = [];
  collecting = texts;
  let json: string;
  try {
    json = JSON.stringify(value);
  } finally {
    collecting = undefined;
  }
  return texts.length === 0
    ? json
    : json.replace(WRITTEN_MARK, (_, index: string) => texts[Number(index)] as string);
}
