// Beyond the spec (issue 27): the words of a prompt the builtin engine understands, in English
// and Spanish. The web shows them as chips under each prompt field; the builtin engine acts on
// them (colour, scale, finish); the metadata records them. One table, read by both.

/** What an understood word does. */
export type PromptTermKind = 'colour' | 'scale' | 'finish';

/** A colour the engine shifts the material toward (in OKLab, keeping its own variation). */
export interface ColourEntry {
  /** The canonical name (English), the id stored in metadata. */
  id: string;
  /** sRGB hex, `#rrggbb`. */
  hex: string;
  /** The words that name it, English and Spanish, lower case (accents allowed). */
  words: readonly string[];
}

/** A modifier of a colour: where it moves the named colour in OKLab. */
export type ColourModifier = 'light' | 'dark' | 'warm' | 'cool' | 'muted' | 'vivid';

/** A scale word: how many times larger the pattern's features become (1/2 finer, 2 larger). */
export interface ScaleEntry {
  id: 'large' | 'small' | 'fine' | 'coarse';
  factor: number;
  words: readonly string[];
}

/** A finish: how it changes contrast, saturation and the roughness material maps get. */
export interface FinishEntry {
  id: 'polished' | 'honed' | 'matte' | 'weathered' | 'glossy' | 'rough';
  words: readonly string[];
}

/** Colours: the tile maker's and the stone's (a material's own, not a screen's). */
export const PROMPT_COLOURS: readonly ColourEntry[] = [
  { id: 'terracotta', hex: '#c2643c', words: ['terracotta', 'terracota', 'barro cocido'] },
  { id: 'ivory', hex: '#f1ead2', words: ['ivory', 'marfil'] },
  { id: 'off-white', hex: '#efebe0', words: ['off-white', 'off white', 'blanco roto'] },
  { id: 'white', hex: '#f4f4f2', words: ['white', 'blanco', 'blanca', 'blancos', 'blancas'] },
  { id: 'cream', hex: '#eee1c0', words: ['cream', 'crema'] },
  { id: 'beige', hex: '#d8c3a0', words: ['beige'] },
  { id: 'sand', hex: '#d6bf8f', words: ['sand', 'sand-coloured', 'arena'] },
  { id: 'black', hex: '#1d1d1f', words: ['black', 'negro', 'negra', 'negros', 'negras'] },
  { id: 'grey', hex: '#8a8a88', words: ['grey', 'gray', 'gris', 'grises'] },
  { id: 'anthracite', hex: '#3b3d40', words: ['anthracite', 'antracita', 'charcoal'] },
  { id: 'red', hex: '#b2302a', words: ['red', 'rojo', 'roja', 'rojos', 'rojas'] },
  { id: 'brick-red', hex: '#9c4a35', words: ['brick red', 'rojo ladrillo'] },
  { id: 'burgundy', hex: '#6e2233', words: ['burgundy', 'granate', 'burdeos'] },
  { id: 'pink', hex: '#e3a1ad', words: ['pink', 'rosa', 'rosado', 'rosada'] },
  { id: 'orange', hex: '#d9782d', words: ['orange', 'naranja'] },
  { id: 'ochre', hex: '#c58f2f', words: ['ochre', 'ocher', 'ocre'] },
  { id: 'yellow', hex: '#dcc23a', words: ['yellow', 'amarillo', 'amarilla'] },
  { id: 'gold', hex: '#c9a44c', words: ['gold', 'golden', 'dorado', 'dorada', 'oro'] },
  { id: 'olive', hex: '#7d7a3a', words: ['olive', 'oliva'] },
  { id: 'green', hex: '#4d8a4a', words: ['green', 'verde', 'verdes'] },
  { id: 'sage', hex: '#9caf88', words: ['sage', 'salvia', 'verde salvia'] },
  { id: 'teal', hex: '#2f7f7e', words: ['teal', 'verde azulado'] },
  { id: 'turquoise', hex: '#3fb5b0', words: ['turquoise', 'turquesa'] },
  { id: 'blue', hex: '#3a62a8', words: ['blue', 'azul', 'azules'] },
  { id: 'navy', hex: '#223056', words: ['navy', 'navy blue', 'azul marino'] },
  { id: 'purple', hex: '#6d4a8f', words: ['purple', 'violet', 'morado', 'morada', 'violeta'] },
  { id: 'brown', hex: '#6f4a30', words: ['brown', 'marrón', 'marrones'] },
  { id: 'walnut', hex: '#5b3b26', words: ['walnut', 'nogal'] },
  { id: 'oak', hex: '#b08a5a', words: ['oak', 'roble'] },
  { id: 'taupe', hex: '#8b7b6b', words: ['taupe', 'topo', 'visón'] },
];

/** Colour modifiers: English before the colour ("warm grey"), Spanish after ("gris cálido"). */
export const PROMPT_COLOUR_MODIFIERS: Readonly<Record<ColourModifier, readonly string[]>> = {
  light: ['light', 'pale', 'claro', 'clara', 'claros', 'claras', 'pálido'],
  dark: ['dark', 'deep', 'oscuro', 'oscura', 'oscuros', 'oscuras', 'intenso'],
  warm: ['warm', 'cálido', 'cálida', 'cálidos'],
  cool: ['cool', 'cold', 'frío', 'fría', 'fríos'],
  muted: ['muted', 'dusty', 'apagado', 'apagada', 'suave', 'empolvado'],
  vivid: ['vivid', 'bright', 'saturated', 'vivo', 'viva', 'brillante', 'saturado'],
};

export const PROMPT_SCALES: readonly ScaleEntry[] = [
  {
    id: 'large',
    factor: 2,
    words: ['large', 'big', 'oversized', 'grande', 'grandes', 'piezas grandes', 'gran formato'],
  },
  { id: 'coarse', factor: 1.5, words: ['coarse', 'chunky', 'grueso', 'gruesa', 'grano grueso'] },
  { id: 'small', factor: 0.6, words: ['small', 'pequeño', 'pequeña', 'pequeños', 'pequeñas'] },
  {
    id: 'fine',
    factor: 0.5,
    words: ['fine', 'tiny', 'fino', 'fina', 'finos', 'finas', 'grano fino', 'piezas pequeñas'],
  },
];

export const PROMPT_FINISHES: readonly FinishEntry[] = [
  { id: 'polished', words: ['polished', 'pulido', 'pulida', 'pulidos', 'pulidas'] },
  { id: 'glossy', words: ['glossy', 'gloss', 'brillo', 'lacado', 'lacada', 'esmaltado'] },
  { id: 'honed', words: ['honed', 'apomazado', 'apomazada', 'satinado', 'satinada', 'satin'] },
  { id: 'matte', words: ['matte', 'matt', 'mate'] },
  {
    id: 'weathered',
    words: ['weathered', 'aged', 'worn', 'envejecido', 'envejecida', 'desgastado', 'desgastada'],
  },
  { id: 'rough', words: ['rough', 'rugoso', 'rugosa', 'rústico', 'rústica'] },
];

/** One understood word (or phrase) of a prompt, as the chips show it and metadata records it. */
export interface UnderstoodTerm {
  kind: PromptTermKind;
  /** The canonical id: a colour's, a scale's or a finish's (English). */
  id: string;
  /** Colour only: its modifiers, in the order written. */
  modifiers?: ColourModifier[];
  /** The words as written in the prompt (case kept), e.g. "Blanco roto", "warm grey". */
  text: string;
}

/** What the builtin engine reads of one prompt: the terms, and the words it leaves to an AI engine. */
export interface PromptUnderstanding {
  terms: UnderstoodTerm[];
  /** The words not understood, as written (stop words such as "a", "de", "with" left out). */
  otherWords: string[];
}

/** Words that carry nothing on their own: never shown as "needs the AI engine". */
const STOP_WORDS = new Set(
  (
    'a an and the of with in on for to by or, y e o u de del la el los las un una unos unas ' +
    'con en para por al sin muy very'
  ).split(/[\s,]+/),
);

/** Lower case without accents, so "Cálido" and "calido" (and "Terracota") compare alike. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

type Phrase =
  | { kind: 'colour'; id: string }
  | { kind: 'modifier'; id: ColourModifier }
  | { kind: 'scale'; id: ScaleEntry['id'] }
  | { kind: 'finish'; id: FinishEntry['id'] };

/** Every phrase of the tables, folded, to what it names; and the longest phrase's word count. */
const PHRASES = new Map<string, Phrase>();
let LONGEST = 1;
function addPhrase(words: string, phrase: Phrase): void {
  const folded = foldWord(words)
    .split(/[\s-]+/)
    .join(' ');
  PHRASES.set(folded, phrase);
  LONGEST = Math.max(LONGEST, folded.split(' ').length);
}
for (const colour of PROMPT_COLOURS) {
  for (const w of colour.words) addPhrase(w, { kind: 'colour', id: colour.id });
}
for (const [id, words] of Object.entries(PROMPT_COLOUR_MODIFIERS) as [
  ColourModifier,
  readonly string[],
][]) {
  for (const w of words) addPhrase(w, { kind: 'modifier', id });
}
for (const scale of PROMPT_SCALES) {
  for (const w of scale.words) addPhrase(w, { kind: 'scale', id: scale.id });
}
for (const finish of PROMPT_FINISHES) {
  for (const w of finish.words) addPhrase(w, { kind: 'finish', id: finish.id });
}

interface Token {
  text: string;
  folded: string;
}

function tokens(prompt: string): Token[] {
  return (prompt.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []).map((text) => ({
    text,
    folded: foldWord(text).replace(/['’]/g, ''),
  }));
}

/**
 * The terms of one prompt, longest phrase first ("blanco roto" is one colour, not "white" and a
 * stray word). A colour takes the modifiers written next to it: English before it ("warm light
 * grey"), Spanish after it ("gris cálido claro"). A modifier next to no colour is not understood.
 */
export function understandPrompt(prompt: string): PromptUnderstanding {
  const words = tokens(prompt);
  const found: { start: number; end: number; phrase: Phrase }[] = [];
  for (let i = 0; i < words.length;) {
    let match: { end: number; phrase: Phrase } | undefined;
    for (let n = Math.min(LONGEST, words.length - i); n >= 1 && !match; n--) {
      const key = words
        .slice(i, i + n)
        .map((w) => w.folded)
        .join(' ');
      const phrase = PHRASES.get(key) ?? PHRASES.get(key.split('-').join(' '));
      if (phrase) match = { end: i + n, phrase };
    }
    if (match) {
      found.push({ start: i, ...match });
      i = match.end;
    } else {
      i++;
    }
  }

  const used = new Set<number>();
  // Word indexes a term covers: the rest are the other words.
  const covered = new Set<number>();
  const terms: UnderstoodTerm[] = [];
  const span = (start: number, end: number) =>
    words
      .slice(start, end)
      .map((w) => w.text)
      .join(' ');
  found.forEach((item, index) => {
    if (item.phrase.kind === 'modifier') return;
    let start = item.start;
    let end = item.end;
    const modifiers: ColourModifier[] = [];
    if (item.phrase.kind === 'colour') {
      // Modifiers directly before (English order), then directly after (Spanish order).
      for (let k = index - 1; k >= 0; k--) {
        const before = found[k];
        if (!before || before.phrase.kind !== 'modifier' || before.end !== start) break;
        if (used.has(k)) break;
        modifiers.unshift(before.phrase.id);
        used.add(k);
        start = before.start;
      }
      for (let k = index + 1; k < found.length; k++) {
        const after = found[k];
        if (!after || after.phrase.kind !== 'modifier' || after.start !== end) break;
        modifiers.push(after.phrase.id);
        used.add(k);
        end = after.end;
      }
    }
    used.add(index);
    for (let w = start; w < end; w++) covered.add(w);
    terms.push({
      kind: item.phrase.kind,
      id: item.phrase.id,
      ...(item.phrase.kind === 'colour' && { modifiers }),
      text: span(start, end),
    });
  });

  const otherWords = words
    .filter((w, index) => !covered.has(index) && !STOP_WORDS.has(w.folded))
    .map((w) => w.text);
  return { terms, otherWords };
}

/** The words a prompt pair asks of the builtin engine: what to reach, and what to exclude. */
export interface PromptTerms {
  positive: UnderstoodTerm[];
  negative: UnderstoodTerm[];
}

/** Both prompts' terms (what metadata records under PROMPT_TERMS_METADATA_KEY). */
export function understandPrompts(positive: string, negative: string): PromptTerms {
  return {
    positive: understandPrompt(positive).terms,
    negative: understandPrompt(negative).terms,
  };
}

/** The LD metadata key the builtin engine records the understood terms under. */
export const PROMPT_TERMS_METADATA_KEY = 'prompt_terms';

/** A colour's entry by id. */
export function promptColour(id: string): ColourEntry | undefined {
  return PROMPT_COLOURS.find((c) => c.id === id);
}

/** A scale's factor by id (1 when unknown). */
export function promptScaleFactor(id: string): number {
  return PROMPT_SCALES.find((s) => s.id === id)?.factor ?? 1;
}
