import { describe, expect, it } from 'vitest';
import { promptRequest, promptTermsOf } from './prompt-request.js';
import { understandPrompts } from './prompt-vocabulary.js';

const request = (positive: string, negative: string) =>
  promptRequest(understandPrompts(positive, negative));

describe('what a prompt pair asks (issue 27, part 1)', () => {
  it('takes the positive colours in order, the first scale and the first finish', () => {
    const asked = request('large polished terracotta and ivory, fine matte', 'blurry');
    expect(asked.colours.map((c) => c.id)).toEqual(['terracotta', 'ivory']);
    expect(asked).toMatchObject({ scale: 'large', finish: 'polished', avoid: [] });
  });

  it('lets the negative cancel the same scale, finish or colour, and avoid its colours', () => {
    const asked = request('large polished red and sage', 'polished, large, rojo');
    expect(asked.colours.map((c) => c.id)).toEqual(['sage']);
    expect(asked.scale).toBeUndefined();
    expect(asked.finish).toBeUndefined();
    expect(asked.avoid.map((c) => c.id)).toEqual(['red']);
    // Another finish or scale in the negative cancels nothing.
    expect(request('honed coarse', 'matte fine')).toMatchObject({
      scale: 'coarse',
      finish: 'honed',
    });
  });

  it('reads recorded terms back from metadata, and nothing from anything else', () => {
    const terms = understandPrompts('gris cálido pulido', 'rojo');
    expect(promptTermsOf(JSON.parse(JSON.stringify(terms)))).toEqual(terms);
    expect(promptTermsOf(undefined)).toBeUndefined();
    expect(promptTermsOf({ positive: [{ kind: 'smell', id: 'x', text: 'x' }], negative: [] })).toBe(
      undefined,
    );
  });
});
