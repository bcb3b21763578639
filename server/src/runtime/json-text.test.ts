import { describe, expect, it } from 'vitest';
import { JsonText, stringifyPassingThrough } from './json-text.js';

describe('stringifyPassingThrough', () => {
  it('writes each JsonText as its own text, unparsed, where JSON.stringify would put its value', () => {
    // Spacing and key order only the stored text has: proof it was copied, not re-serialised.
    const stored = '{"seed":7, "cliptextencode_585":"m\\u00e1rmol"}';
    const answer = {
      success: true,
      images: [
        { filename: 'a.png', metadata: JsonText.ofObject(stored), tags: ['stone'] },
        { filename: 'b.png', metadata: JsonText.ofObject(JSON.stringify({ seed: 8 })), tags: [] },
      ],
    };
    const written = stringifyPassingThrough(answer);
    expect(written).toContain(`"metadata":${stored}`);
    expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(answer)));
    expect(JSON.parse(written).images[0].metadata).toEqual({
      seed: 7,
      cliptextencode_585: 'mármol',
    });
  });

  it("leaves a user's string that imitates a mark as a string", () => {
    const imitation = '\u0001json-text:000000000000000000000000:0';
    const written = stringifyPassingThrough({
      filename: imitation,
      metadata: JsonText.ofObject('{"a":1}'),
    });
    expect(JSON.parse(written)).toEqual({ filename: imitation, metadata: { a: 1 } });
  });

  it('is plain JSON.stringify for a message without JsonText', () => {
    const message = { transactionid: 't', user: 'ann', success: false, error: 'x\u0001y' };
    expect(stringifyPassingThrough(message)).toBe(JSON.stringify(message));
  });

  it('stops marking after a message that could not be written', () => {
    expect(() =>
      stringifyPassingThrough({ n: 1n, metadata: JsonText.ofObject(JSON.stringify({ a: 1 })) }),
    ).toThrow();
    expect(JSON.stringify({ metadata: JsonText.ofObject(JSON.stringify({ a: 1 })) })).toBe(
      '{"metadata":{"a":1}}',
    );
  });
});

describe('JsonText', () => {
  it('stands for its parsed value in JSON.stringify and in comparisons of parsed answers', () => {
    expect(JSON.stringify([JsonText.ofObject('{"a":[1,2]}')])).toBe('[{"a":[1,2]}]');
    expect(JsonText.ofObject(' {"a":1} ').value()).toEqual({ a: 1 });
  });

  it('stands for {} when the stored text is not an object, as a failed metadata parse did', () => {
    for (const text of ['', 'null', '[1]', '"x"', 'not json'])
      expect(stringifyPassingThrough({ metadata: JsonText.ofObject(text) })).toBe(
        '{"metadata":{}}',
      );
  });
});
