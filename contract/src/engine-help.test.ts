import { describe, expect, it } from 'vitest';
import {
  ENGINE_HELP_TEXTS,
  ENGINE_HELP_TEXTS_EN,
  ENGINE_HELPED_CONTROLS,
  PREVIEW_ENGINES,
  PROMPT_CHIP_TEXTS,
  PROMPT_CHIP_TEXTS_EN,
  SYNTHESIS_TEXTS,
  SYNTHESIS_TEXTS_EN,
  controlHelp,
  engineInfoResponseSchema,
  synthesisOptionText,
  synthesisUsedText,
} from './engine-help.js';
import { SYNTHESIS_MODES } from './generation.js';
import { API_ROUTES } from './routes.js';
import { TEXTS } from './texts.js';

/** Every string a value holds, functions called with a sample argument. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'function') return strings((value as (arg: string[]) => unknown)(['x']));
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('the engine a server makes previews with (issue 27)', () => {
  it('is read at its own route, and only as one of the engines', () => {
    expect(API_ROUTES.engineInfo).toBe('/api/query/engine');
    for (const preview of PREVIEW_ENGINES) {
      expect(engineInfoResponseSchema.parse({ preview })).toEqual({ preview });
    }
    expect(engineInfoResponseSchema.safeParse({ preview: 'dall-e' }).success).toBe(false);
    expect(engineInfoResponseSchema.safeParse({}).success).toBe(false);
  });
});

describe("the controls' help, per engine", () => {
  it.each([
    ['Spanish', ENGINE_HELP_TEXTS, PROMPT_CHIP_TEXTS, SYNTHESIS_TEXTS],
    ['English', ENGINE_HELP_TEXTS_EN, PROMPT_CHIP_TEXTS_EN, SYNTHESIS_TEXTS_EN],
  ] as const)(
    'says something of every control on every engine in %s, each text its own',
    (_, help, chips, synthesis) => {
      for (const engine of PREVIEW_ENGINES) {
        expect(Object.keys(help.controls[engine]).sort()).toEqual(
          [...ENGINE_HELPED_CONTROLS].sort(),
        );
      }
      const all = [
        ...strings(help),
        ...strings(chips),
        ...strings(synthesis),
        ...SYNTHESIS_MODES.map((mode) => synthesisOptionText(mode, synthesis)).filter(
          (text) => text !== synthesis.names.auto,
        ),
      ];
      expect(all.filter((text, index) => all.indexOf(text) !== index)).toEqual([]);
      const spec = new Set(strings(TEXTS));
      expect(all.filter((text) => spec.has(text))).toEqual([]);
    },
  );

  it('marks the Synthesis select inert on ComfyUI, and nothing on the builtin engine', () => {
    const inert = (engine: (typeof PREVIEW_ENGINES)[number]) =>
      ENGINE_HELPED_CONTROLS.filter((control) => controlHelp(engine, control).inert);
    expect(inert('comfyui')).toEqual(['synthesis']);
    expect(inert('builtin')).toEqual([]);
    expect(controlHelp('comfyui', 'synthesis', ENGINE_HELP_TEXTS_EN)).toEqual({
      text: 'A choice of the builtin engine',
      inert: true,
    });
  });

  it("tells the builtin engine's meaning of the sliders (docs/engines.md, Parameters)", () => {
    const help = ENGINE_HELP_TEXTS_EN.controls.builtin;
    expect(help.promptAdherence).toMatch(/patch size/i);
    expect(help.similarity).toMatch(/layout follows the reference/);
    expect(help.imaginationWeight).toMatch(/variation/i);
    expect(help.styleWeight).toMatch(/stylisation/i);
    expect(ENGINE_HELP_TEXTS_EN.controls.comfyui.imaginationWeight).toMatch(/CFG/);
    expect(ENGINE_HELP_TEXTS.controls.builtin.promptAdherence).toMatch(/tamaño de parche/i);
    expect(ENGINE_HELP_TEXTS.controls.comfyui.imaginationWeight).toMatch(/CFG/);
  });

  it('names the Automatic mode as the Synthesis select does, in each language', () => {
    expect(ENGINE_HELP_TEXTS.controls.builtin.synthesis).toContain(SYNTHESIS_TEXTS.names.auto);
    expect(ENGINE_HELP_TEXTS_EN.controls.builtin.synthesis).toContain(
      SYNTHESIS_TEXTS_EN.names.auto,
    );
  });
});

describe('the prompt chips and the synthesis texts', () => {
  it('name the other words and the AI engine', () => {
    expect(PROMPT_CHIP_TEXTS.otherWords('mossy, wall')).toBe(
      'Las demás palabras (mossy, wall) necesitan el motor de IA (ComfyUI)',
    );
    expect(PROMPT_CHIP_TEXTS_EN.otherWords('mossy, wall')).toBe(
      'Other words (mossy, wall) need the AI engine (ComfyUI)',
    );
  });

  it('offer each mode with what it suits, and say when the engine chose it', () => {
    expect(SYNTHESIS_MODES.map((mode) => synthesisOptionText(mode))).toEqual([
      'Automática',
      'Por parches (estructurada: ladrillos, tablas, vetas)',
      'Por mezcla (estocástica: granito, arena, terrazo)',
    ]);
    expect(SYNTHESIS_MODES.map((mode) => synthesisOptionText(mode, SYNTHESIS_TEXTS_EN))).toEqual([
      'Automatic',
      'Quilting (structured: bricks, planks, veins)',
      'Blending (stochastic: granite, sand, terrazzo)',
    ]);
    expect(synthesisUsedText('blending', 'auto')).toBe('Por mezcla (elegida automáticamente)');
    expect(synthesisUsedText('blending', 'auto', SYNTHESIS_TEXTS_EN)).toBe(
      'Blending (chosen automatically)',
    );
    expect(synthesisUsedText('quilting', undefined, SYNTHESIS_TEXTS_EN)).toBe(
      'Quilting (chosen automatically)',
    );
    expect(synthesisUsedText('quilting', 'quilting', SYNTHESIS_TEXTS_EN)).toBe('Quilting');
  });
});
