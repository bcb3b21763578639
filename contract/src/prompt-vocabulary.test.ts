import { describe, expect, it } from 'vitest';
import {
  PROMPT_COLOURS,
  PROMPT_FINISHES,
  PROMPT_SCALES,
  foldWord,
  understandPrompt,
  understandPrompts,
} from './prompt-vocabulary.js';

const ids = (prompt: string) => understandPrompt(prompt).terms.map((t) => t.id);

describe('the prompt vocabulary (issue 27, part 1)', () => {
  it('reads "terracotta" and "terracota" alike, whatever the case or accents', () => {
    const english = understandPrompt('Terracotta floor tiles').terms;
    const spanish = understandPrompt('baldosas de terracota').terms;
    expect(english).toEqual([
      { kind: 'colour', id: 'terracotta', modifiers: [], text: 'Terracotta' },
    ]);
    expect(spanish.map(({ kind, id }) => ({ kind, id }))).toEqual([
      { kind: 'colour', id: 'terracotta' },
    ]);
    expect(foldWord('CÁLIDO')).toBe('calido');
  });

  it('takes the longest phrase: "blanco roto" is off-white, not white', () => {
    expect(ids('porcelánico blanco roto')).toEqual(['off-white']);
    expect(ids('piezas grandes de mármol')).toEqual(['large']);
    expect(ids('azul marino')).toEqual(['navy']);
  });

  it('gives a colour the modifiers next to it: English before, Spanish after', () => {
    expect(understandPrompt('warm grey concrete').terms[0]).toMatchObject({
      id: 'grey',
      modifiers: ['warm'],
      text: 'warm grey',
    });
    expect(understandPrompt('hormigón gris cálido claro').terms[0]).toMatchObject({
      id: 'grey',
      modifiers: ['warm', 'light'],
      text: 'gris cálido claro',
    });
    // A modifier next to no colour is not understood.
    expect(understandPrompt('warm stone').terms).toEqual([]);
  });

  it('reads scale and finish words in both languages', () => {
    expect(ids('large polished slabs')).toEqual(['large', 'polished']);
    expect(ids('mármol envejecido, acabado mate')).toEqual(['weathered', 'matte']);
    expect(ids('fine honed terrazzo')).toEqual(['fine', 'honed']);
  });

  it('lists the words it leaves to the AI engine, without stop words', () => {
    expect(understandPrompt('a mossy stone wall with terracotta').otherWords).toEqual([
      'mossy',
      'stone',
      'wall',
    ]);
    expect(understandPrompt('').terms).toEqual([]);
  });

  it('reads both prompts: what to reach and what to exclude', () => {
    expect(understandPrompts('ivory marble', 'red veins')).toMatchObject({
      positive: [{ id: 'ivory' }],
      negative: [{ id: 'red' }],
    });
  });

  it('names each word once across the tables, and every colour is a hex colour', () => {
    const phrases = [
      ...PROMPT_COLOURS.flatMap((c) => c.words),
      ...PROMPT_SCALES.flatMap((s) => s.words),
      ...PROMPT_FINISHES.flatMap((f) => f.words),
    ].map((w) => foldWord(w));
    expect(new Set(phrases).size).toBe(phrases.length);
    for (const colour of PROMPT_COLOURS) expect(colour.hex).toMatch(/^#[0-9a-f]{6}$/);
  });
});
