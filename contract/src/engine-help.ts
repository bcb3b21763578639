// Beyond the spec (issue 27): the Generate screen says what each control does on the engine that
// makes the previews here, marks a control that does nothing on it, shows the words of a prompt
// the builtin engine understood, and offers its synthesis mode. Every text of that, written once,
// in Spanish (the default language) with its English twin (issue 30, part 5).
import { z } from 'zod';
import type { SynthesisMode, SynthesisUsed } from './generation.js';
import type { Translation } from './i18n.js';
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
  /** The control changes nothing on that engine: the screen marks it (ENGINE_HELP_TEXTS.inert). */
  inert?: true;
}

/** The controls that change nothing on each engine. */
export const INERT_CONTROLS: Readonly<Record<PreviewEngine, readonly EngineHelpedControl[]>> = {
  builtin: [],
  comfyui: ['synthesis'],
};

/**
 * What each control does, per engine: the builtin engine's as docs/engines.md "Parameters" tells
 * it; ComfyUI's as the shipped workflow templates wire it (server/src/engines/comfyui/workflows/).
 */
export const ENGINE_HELP_TEXTS = {
  /** Before the help of a control that changes nothing on the engine. */
  inert: 'Sin efecto en este motor.',
  controls: {
    builtin: {
      positivePrompt:
        'Aquí solo cuentan las palabras de color, escala y acabado (las que aparecen debajo)',
      negativePrompt:
        'Aquí solo cuentan las palabras de color, escala y acabado: lo que nombran queda fuera',
      imaginationWeight: 'Variación: con cuánta libertad se toman trozos y se unen otros nuevos',
      similarity: 'Cuánto se ciñe la disposición a la referencia',
      promptAdherence:
        'Tamaño de parche: cómo de grandes son los trozos de la referencia que se conservan intactos',
      styleWeight: 'Estilización: más contraste y saturación, menos tonos, aspecto de pintura',
      tiling: 'El resultado se repite sin cortes visibles en las dos direcciones',
      mask: 'Copia solo de la parte opaca de la referencia (su canal alfa)',
      synthesis: 'Cómo se hacen las vistas previas; Automática decide según la referencia',
    },
    comfyui: {
      positivePrompt: 'El motor de IA lee todas las palabras',
      negativePrompt: 'El motor de IA se aparta de todo lo que nombran estas palabras',
      imaginationWeight: 'Escala CFG: con cuánto rigor sigue la IA los prompts',
      similarity:
        'Denoise: 1 lo repinta todo; con menos se conserva más de la disposición de la referencia',
      promptAdherence: 'Peso de IP-Adapter: cuánto guía la referencia a la IA',
      styleWeight: 'Transferencia de estilo de IP-Adapter: cuánto estilo se toma de la referencia',
      tiling: 'Repetición sin cortes en el sampler y decodificación VAE circular',
      mask: 'La IA solo ve la parte opaca de la referencia (su canal alfa)',
      synthesis: 'Una opción del motor integrado',
    },
  } satisfies Record<PreviewEngine, Record<EngineHelpedControl, string>>,
} as const;

export const ENGINE_HELP_TEXTS_EN: Translation<typeof ENGINE_HELP_TEXTS> = {
  inert: 'No effect on this engine.',
  controls: {
    builtin: {
      positivePrompt: 'Only colour, scale and finish words act here (the chips below)',
      negativePrompt: 'Only colour, scale and finish words act here: what they name is kept out',
      imaginationWeight: 'Variation: how freely pieces are drawn and new pieces joined in',
      similarity: 'How closely the layout follows the reference',
      promptAdherence: "Patch size: how large the reference's pieces kept intact are",
      styleWeight: 'Stylisation: more contrast and saturation, fewer tones, a painted look',
      tiling: 'The result tiles with no visible seam in both directions',
      mask: "Copies only from the reference's opaque part (its alpha channel)",
      synthesis: 'How previews are made; Automatic decides from the reference',
    },
    comfyui: {
      positivePrompt: 'The AI engine reads every word',
      negativePrompt: 'The AI engine steers away from every word',
      imaginationWeight: 'CFG scale: how strictly the AI follows the prompts',
      similarity: "Denoise: 1 repaints all; lower keeps more of the reference's layout",
      promptAdherence: 'IP-Adapter weight: how strongly the reference steers the AI',
      styleWeight: "IP-Adapter style transfer: how much of the reference's style is taken",
      tiling: 'Seamless tiling in the sampler and a circular VAE decode',
      mask: "The AI is shown only the reference's opaque part (its alpha channel)",
      synthesis: 'A choice of the builtin engine',
    },
  },
};

/** A control's help on an engine, in the language of `texts`. */
export function controlHelp(
  engine: PreviewEngine,
  control: EngineHelpedControl,
  texts: Translation<typeof ENGINE_HELP_TEXTS> = ENGINE_HELP_TEXTS,
): ControlHelp {
  const text = texts.controls[engine][control];
  return INERT_CONTROLS[engine].includes(control) ? { text, inert: true } : { text };
}

/** The chips under the prompt fields, and the understood words in an image's details. */
export const PROMPT_CHIP_TEXTS = {
  /** Before the positive prompt's chips. */
  understood: 'Reconocidas:',
  /** Before the negative prompt's chips: the engine keeps out what they name. */
  excluded: 'Excluidas:',
  /** What a chip's small label says it is (a colour chip shows its colour instead). */
  kinds: { colour: 'Color', scale: 'Escala', finish: 'Acabado' } satisfies Record<
    PromptTermKind,
    string
  >,
  /** Under a prompt whose other words (listed: "mossy, wall") the builtin engine leaves to AI. */
  otherWords: (words: string) => `Las demás palabras (${words}) necesitan el motor de IA (ComfyUI)`,
  /** The LD image details' fields (from the metadata's prompt_terms). */
  understoodWords: 'Palabras reconocidas',
  excludedWords: 'Palabras excluidas',
} as const;

export const PROMPT_CHIP_TEXTS_EN: Translation<typeof PROMPT_CHIP_TEXTS> = {
  understood: 'Understood:',
  excluded: 'Excluded:',
  kinds: { colour: 'Colour', scale: 'Scale', finish: 'Finish' },
  otherWords: (words: string) => `Other words (${words}) need the AI engine (ComfyUI)`,
  understoodWords: 'Understood words',
  excludedWords: 'Excluded words',
};

/** The Synthesis select (issue 27, part 3) and the mode an image's details show. */
export const SYNTHESIS_TEXTS = {
  label: 'Síntesis',
  names: {
    auto: 'Automática',
    quilting: 'Por parches',
    blending: 'Por mezcla',
  } satisfies Record<SynthesisMode, string>,
  /** What each mode suits, after its name in the select. */
  suits: {
    quilting: 'estructurada: ladrillos, tablas, vetas',
    blending: 'estocástica: granito, arena, terrazo',
  } satisfies Record<SynthesisUsed, string>,
  /** After the mode used when the engine chose it (the image was asked with Automatic). */
  chosenAutomatically: 'elegida automáticamente',
} as const;

export const SYNTHESIS_TEXTS_EN: Translation<typeof SYNTHESIS_TEXTS> = {
  label: 'Synthesis',
  names: { auto: 'Automatic', quilting: 'Quilting', blending: 'Blending' },
  suits: {
    quilting: 'structured: bricks, planks, veins',
    blending: 'stochastic: granite, sand, terrazzo',
  },
  chosenAutomatically: 'chosen automatically',
};

type SynthesisTexts = Translation<typeof SYNTHESIS_TEXTS>;

/** An option of the Synthesis select: "Por parches (estructurada: ladrillos, tablas, vetas)". */
export function synthesisOptionText(
  mode: SynthesisMode,
  texts: SynthesisTexts = SYNTHESIS_TEXTS,
): string {
  const name = texts.names[mode];
  return mode === 'auto' ? name : `${name} (${texts.suits[mode]})`;
}

/** The mode an image was made with, as its details show it: "Por mezcla (elegida automáticamente)". */
export function synthesisUsedText(
  used: SynthesisUsed,
  asked: SynthesisMode | undefined,
  texts: SynthesisTexts = SYNTHESIS_TEXTS,
): string {
  const name = texts.names[used];
  return asked === undefined || asked === 'auto' ? `${name} (${texts.chosenAutomatically})` : name;
}
