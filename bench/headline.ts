/**
 * A benchmark's headline: the one figure that says whether it met its goal, printed as a line the
 * runner (run.ts) gathers into the summary table of `npm run bench`.
 */
export interface Headline {
  /** What was measured, in a few words ("list-tag round trip, 1 client, embedded broker"). */
  figure: string;
  /** The measured value with its unit ("1.84×", "2.31 s"). */
  value: string;
  /** The goal it is held to ("≤ 2×"), if it has one. */
  goal?: string;
  met?: boolean;
}

const PREFIX = 'headline ';

export function printHeadline(headline: Headline): void {
  console.log(PREFIX + JSON.stringify(headline));
}

/** The headline a line of a benchmark's output carries, if it is one. */
export function parseHeadline(line: string): Headline | undefined {
  if (!line.startsWith(PREFIX)) return undefined;
  try {
    const parsed = JSON.parse(line.slice(PREFIX.length)) as Partial<Headline>;
    if (typeof parsed.figure !== 'string' || typeof parsed.value !== 'string') return undefined;
    return parsed as Headline;
  } catch {
    return undefined;
  }
}
