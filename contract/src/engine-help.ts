// Beyond the spec (issue 27): the Generate screen says what each control does on the engine that
// makes the previews here, marks a control that does nothing on it, shows the words of a prompt
// the builtin engine understood, and offers its synthesis mode. Every text of that, written once.
import { z } from 'zod';
import type { SynthesisMode, SynthesisUsed } from './generation.js';
import type { PromptTermKind } from './prompt-vocabulary.js';

/** The engines a server makes previews with (the server's ENGINE setting). */
export const PREVIEW_ENGINES = ['builtin', 'comfyui'] as const;
export type PreviewEngine = (typeof PREVIEW_ENGINES)[number];

/** GET API_ROUTES.engineInfo, signed-in users only: the engine this server makes previews with. */
export const engineInfoResponseSchema = z.object({ preview: z.enum(PREVIEW_ENGINES) });
export type EngineInfoResponse = z.infer<typeof engineInfoResponseSchema>;

/** The Generate screen's controls whose meaning depends on the engine. */
export const ENGINE_HELPED_CONTROLS = [
  'positivePrompt',
  'negativePrompt',
  'imaginationWeight',
  'similarity',
  'promptAdherence',
  'styleWeight',
  'tiling',
  'mask',
  'synthesis',
] as const;
export type EngineHelpedControl = (typeof ENGINE_HELPED_CONTROLS)[number];

/** A control's help on one engine. */
export interface ControlHelp {
  /** What the control does there, in a line. */
  text: string;
  /** The control changes nothing on that engine: the screen marks it (INERT_CONTROL_TEXT). */
  inert?: true;
}

/**
 * What each control does, per engine: the builtin engine's as docs/engines.md "Parameters" tells
 * it; ComfyUI's as the shipped workflow templates wire it (server/src/engines/comfyui/workflows/).
 */
export const CONTROL_HELP: Readonly<
  Record<PreviewEngine, Readonly<Record<EngineHelpedControl, ControlHelp>>>
> = {
  builtin: {
    positivePrompt: { text: 'Only colour, scale and finish words act here (the chips below)' },
    negativePrompt: {
      text: 'Only colour, scale and finish words act here: what they name is kept out',
    },
    imaginationWeight: { text: 'Variation: how freely pieces are drawn and new pieces joined in' },
    similarity: { text: 'How closely the layout follows the reference' },
    promptAdherence: { text: "Patch size: how large the reference's pieces kept intact are" },
    styleWeight: { text: 'Stylisation: more contrast and saturation, fewer tones, a painted look' },
    tiling: { text: 'The result tiles with no visible seam in both directions' },
    mask: { text: "Copies only from the reference's opaque part (its alpha channel)" },
    synthesis: { text: 'How previews are made; Automatic decides from the reference' },
  },
  comfyui: {
    positivePrompt: { text: 'The AI engine reads every word' },
    negativePrompt: { text: 'The AI engine steers away from every word' },
    imaginationWeight: { text: 'CFG scale: how strictly the AI follows the prompts' },
    similarity: { text: "Denoise: 1 repaints all; lower keeps more of the reference's layout" },
    promptAdherence: { text: 'IP-Adapter weight: how strongly the reference steers the AI' },
    styleWeight: { text: "IP-Adapter style transfer: how much of the reference's style is taken" },
    tiling: { text: 'Seamless tiling in the sampler and a circular VAE decode' },
    mask: { text: "The AI is shown only the reference's opaque part (its alpha channel)" },
    synthesis: { text: 'A choice of the builtin engine', inert: true },
  },
};

/** Before the help of a control that changes nothing on the engine. */
export const INERT_CONTROL_TEXT = 'No effect on this engine.';

/** The chips under the prompt fields, and the understood words in an image's details. */
export const PROMPT_CHIP_TEXTS = {
  /** Before the positive prompt's chips. */
  understood: 'Understood:',
  /** Before the negative prompt's chips: the engine keeps out what they name. */
  excluded: 'Excluded:',
  /** What a chip's small label says it is (a colour chip shows its colour instead). */
  kinds: { colour: 'Colour', scale: 'Scale', finish: 'Finish' } satisfies Record<
    PromptTermKind,
    string
  >,
  /** Under a prompt whose other words the builtin engine leaves to an AI engine. */
  otherWords: (words: readonly string[]) =>
    `Other words (${words.join(', ')}) need the AI engine (ComfyUI)`,
  /** The LD image details' fields (from the metadata's prompt_terms). */
  understoodWords: 'Understood words',
  excludedWords: 'Excluded words',
} as const;

/** The Synthesis select (issue 27, part 3) and the mode an image's details show. */
export const SYNTHESIS_TEXTS = {
  label: 'Synthesis',
  names: {
    auto: 'Automatic',
    quilting: 'Quilting',
    blending: 'Blending',
  } satisfies Record<SynthesisMode, string>,
  /** What each mode suits, after its name in the select. */
  suits: {
    quilting: 'structured: bricks, planks, veins',
    blending: 'stochastic: granite, sand, terrazzo',
  } satisfies Record<SynthesisUsed, string>,
  /** After the mode used when the engine chose it (the image was asked with Automatic). */
  chosenAutomatically: 'chosen automatically',
} as const;

/** An option of the Synthesis select: "Quilting (structured: bricks, planks, veins)". */
export function synthesisOptionText(mode: SynthesisMode): string {
  const name = SYNTHESIS_TEXTS.names[mode];
  return mode === 'auto' ? name : `${name} (${SYNTHESIS_TEXTS.suits[mode]})`;
}

/** The mode an image was made with, as its details show it: "Blending (chosen automatically)". */
export function synthesisUsedText(used: SynthesisUsed, asked: SynthesisMode | undefined): string {
  const name = SYNTHESIS_TEXTS.names[used];
  return asked === undefined || asked === 'auto'
    ? `${name} (${SYNTHESIS_TEXTS.chosenAutomatically})`
    : name;
}
