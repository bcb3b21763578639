// Beyond the spec (issue 27): what a prompt pair asks of the builtin engine once the negative
// prompt has had its say. The engine reads it for the pixels, the material maps for the
// roughness (from the terms an image's metadata records), so the rule is written once.
import { z } from 'zod';
import {
  PROMPT_COLOUR_MODIFIERS,
  type ColourModifier,
  type FinishEntry,
  type PromptTerms,
  type ScaleEntry,
  type UnderstoodTerm,
} from './prompt-vocabulary.js';

/** The effect of a prompt pair: what to reach and what to keep out. */
export interface PromptRequest {
  /** The positive prompt's colours in the order written, less those the negative names. */
  colours: UnderstoodTerm[];
  /** The positive prompt's first scale the negative does not name. */
  scale?: ScaleEntry['id'];
  /** The positive prompt's first finish the negative does not name. */
  finish?: FinishEntry['id'];
  /** The negative prompt's colours: what the output is to keep away from. */
  avoid: UnderstoodTerm[];
}

/**
 * The request of a prompt pair: a scale, finish or colour the negative prompt names cancels the
 * same in the positive; the negative's colours are to be avoided; of several scales or finishes
 * the first written counts.
 */
export function promptRequest(terms: PromptTerms): PromptRequest {
  const named = new Set(terms.negative.map((term) => `${term.kind}:${term.id}`));
  const kept = terms.positive.filter((term) => !named.has(`${term.kind}:${term.id}`));
  const first = (kind: UnderstoodTerm['kind']) => kept.find((term) => term.kind === kind)?.id;
  const scale = first('scale') as ScaleEntry['id'] | undefined;
  const finish = first('finish') as FinishEntry['id'] | undefined;
  return {
    colours: kept.filter((term) => term.kind === 'colour'),
    ...(scale && { scale }),
    ...(finish && { finish }),
    avoid: terms.negative.filter((term) => term.kind === 'colour'),
  };
}

const MODIFIERS = Object.keys(PROMPT_COLOUR_MODIFIERS) as [ColourModifier, ...ColourModifier[]];

const understoodTermSchema = z.object({
  kind: z.enum(['colour', 'scale', 'finish']),
  id: z.string(),
  modifiers: z.array(z.enum(MODIFIERS)).optional(),
  text: z.string(),
});

const promptTermsSchema = z.object({
  positive: z.array(understoodTermSchema),
  negative: z.array(understoodTermSchema),
});

/** The terms an image's metadata records (PROMPT_TERMS_METADATA_KEY); undefined if it has none. */
export function promptTermsOf(value: unknown): PromptTerms | undefined {
  const parsed = promptTermsSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const term = (t: z.infer<typeof understoodTermSchema>): UnderstoodTerm => ({
    kind: t.kind,
    id: t.id,
    ...(t.modifiers && { modifiers: t.modifiers }),
    text: t.text,
  });
  return { positive: parsed.data.positive.map(term), negative: parsed.data.negative.map(term) };
}
