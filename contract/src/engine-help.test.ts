import { describe, expect, it } from 'vitest';
import {
  CONTROL_HELP,
  ENGINE_HELPED_CONTROLS,
  INERT_CONTROL_TEXT,
  PREVIEW_ENGINES,
  PROMPT_CHIP_TEXTS,
  SYNTHESIS_TEXTS,
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
  it('says something of every control on every engine, each text its own', () => {
    for (const engine of PREVIEW_ENGINES) {
      expect(Object.keys(CONTROL_HELP[engine]).sort()).toEqual([...ENGINE_HELPED_CONTROLS].sort());
    }
    const all = [
      ...strings(CONTROL_HELP),
      INERT_CONTROL_TEXT,
      ...strings(PROMPT_CHIP_TEXTS),
      ...strings(SYNTHESIS_TEXTS),
      ...SYNTHESIS_MODES.map(synthesisOptionText).filter((text) => text !== 'Automatic'),
    ];
    expect(all.filter((text, index) => all.indexOf(text) !== index)).toEqual([]);
    const spec = new Set(strings(TEXTS));
    expect(all.filter((text) => spec.has(text))).toEqual([]);
  });

  it('marks the Synthesis select inert on ComfyUI, and nothing on the builtin engine', () => {
    const inert = (engine: (typeof PREVIEW_ENGINES)[number]) =>
      ENGINE_HELPED_CONTROLS.filter((control) => CONTROL_HELP[engine][control].inert);
    expect(inert('comfyui')).toEqual(['synthesis']);
    expect(inert('builtin')).toEqual([]);
  });

  it("tells the builtin engine's meaning of the sliders (docs/engines.md, Parameters)", () => {
    const help = CONTROL_HELP.builtin;
    expect(help.promptAdherence.text).toMatch(/patch size/i);
    expect(help.similarity.text).toMatch(/layout follows the reference/);
    expect(help.imaginationWeight.text).toMatch(/variation/i);
    expect(help.styleWeight.text).toMatch(/stylisation/i);
    expect(CONTROL_HELP.comfyui.imaginationWeight.text).toMatch(/CFG/);
  });
});

describe('the prompt chips and the synthesis texts', () => {
  it('name the other words and the AI engine', () => {
    expect(PROMPT_CHIP_TEXTS.otherWords(['mossy', 'wall'])).toBe(
      'Other words (mossy, wall) need the AI engine (ComfyUI)',
    );
  });

  it('offer each mode with what it suits, and say when the engine chose it', () => {
    expect(SYNTHESIS_MODES.map(synthesisOptionText)).toEqual([
      'Automatic',
      'Quilting (structured: bricks, planks, veins)',
      'Blending (stochastic: granite, sand, terrazzo)',
    ]);
    expect(synthesisUsedText('blending', 'auto')).toBe('Blending (chosen automatically)');
    expect(synthesisUsedText('quilting', undefined)).toBe('Quilting (chosen automatically)');
    expect(synthesisUsedText('quilting', 'quilting')).toBe('Quilting');
  });
});
