// Finds the twin of a text another language's object holds (issue 30, part 5): the web shows a
// text the server wrote in the language chosen. A fixed text is found as it is; a text that
// names values is found by the words around them, and its twin is written with the same values.

/** Every string or function of a text object at any depth, with its path ("layingPatterns.stack"). */
export function textLeaves(value: unknown, path = ''): [string, unknown][] {
  if (typeof value === 'string' || typeof value === 'function') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    textLeaves(child, path === '' ? key : `${path}.${key}`),
  );
}

type TextFunction = (...args: unknown[]) => string;

/** A text that names values, as a pattern: its words, a group for each value. */
interface ValuePattern {
  regex: RegExp;
  /** Which argument each group of the regex is. */
  argumentOf: number[];
  twin: TextFunction;
  /** How many letters the words have: the pattern with more is the more specific one. */
  letters: number;
}

// Fewer letters than this could be found inside a text of another meaning ("X de Y"), among the
// many texts of the interface; a short list of refusals can take fewer ("No user 'x'").
const MIN_PATTERN_LETTERS = 10;
const MARKER = /⟦(\d+)⟧/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pattern of `text`, when it can be read back cleanly: every argument written once and as it
 * was given (not formatted or counted), words between any two, and words enough to be specific.
 */
function patternOf(
  text: TextFunction,
  twin: TextFunction,
  minLetters: number,
): ValuePattern | undefined {
  if (text.length === 0) return undefined;
  let written: string;
  try {
    written = text(...Array.from({ length: text.length }, (_, i) => `⟦${i}⟧`));
  } catch {
    return undefined;
  }
  const parts = written.split(MARKER);
  // split keeps the captured argument numbers at the odd places: words, number, words, …
  const words = parts.filter((_, i) => i % 2 === 0);
  const argumentOf = parts.filter((_, i) => i % 2 === 1).map(Number);
  const unique = new Set(argumentOf).size === argumentOf.length;
  const separated = words.slice(1, -1).every((part) => part !== '');
  const letters = words.join('').replace(/[^\p{L}]/gu, '').length;
  if (argumentOf.length !== text.length || !unique || !separated) return undefined;
  if (letters < minLetters) return undefined;
  const source = words.map(escapeRegExp).join('([\\s\\S]+?)');
  return { regex: new RegExp(`^${source}$`), argumentOf, twin, letters };
}

/** A value read back: a number where the text wrote one exactly ("30"), else the text. */
function valueOf(text: string): string | number {
  return /^\d+$/.test(text) && String(Number(text)) === text ? Number(text) : text;
}

/**
 * Finds twins from one language's objects to another's: each pair is [from, to]. A text that names
 * values is looked for when its words have `minLetters` letters at least.
 */
export function twinFinder(
  pairs: readonly (readonly [from: unknown, to: unknown])[],
  minLetters = MIN_PATTERN_LETTERS,
): (text: string) => string | undefined {
  const fixed = new Map<string, string>();
  const patterns: ValuePattern[] = [];
  for (const [from, to] of pairs) {
    const twins = new Map(textLeaves(to));
    for (const [path, text] of textLeaves(from)) {
      const twin = twins.get(path);
      if (typeof text === 'string' && typeof twin === 'string') {
        if (!fixed.has(text)) fixed.set(text, twin);
      } else if (typeof text === 'function' && typeof twin === 'function') {
        const pattern = patternOf(text as TextFunction, twin as TextFunction, minLetters);
        if (pattern) patterns.push(pattern);
      }
    }
  }
  patterns.sort((a, b) => b.letters - a.letters);

  return (text) => {
    const found = fixed.get(text);
    if (found !== undefined) return found;
    for (const pattern of patterns) {
      const match = pattern.regex.exec(text);
      if (!match) continue;
      const args: (string | number)[] = [];
      pattern.argumentOf.forEach((argument, group) => {
        args[argument] = valueOf(match[group + 1] ?? '');
      });
      return pattern.twin(...args);
    }
    return undefined;
  };
}
