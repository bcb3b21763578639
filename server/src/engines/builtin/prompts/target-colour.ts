/**
 * The colour a prompt's colour term names, in OKLab: the vocabulary's hex moved by its modifiers
 * (light, dark, warm, cool, muted, vivid) and brought into sRGB's gamut, all by culori.
 */
import { promptColour, type ColourModifier, type UnderstoodTerm } from '@tessera/contract';
import { clampChroma, converter, type Oklab, type Oklch } from 'culori';
import type { Lab } from './oklab.js';

const toOklab = converter('oklab');
const toOklch = converter('oklch');

/** What each modifier does to a colour (OKLCH for lightness and chroma, OKLab for warmth). */
const MODIFY: Readonly<Record<ColourModifier, (colour: Oklch) => Oklch>> = {
  // Towards white, a little paler.
  light: (c) => ({ ...c, l: c.l + (1 - c.l) * 0.4, c: c.c * 0.85 }),
  dark: (c) => ({ ...c, l: c.l * 0.7 }),
  // Towards orange or towards blue: what makes a grey or a white warm or cool.
  warm: (c) => shifted(c, 0.01, 0.03),
  cool: (c) => shifted(c, -0.012, -0.035),
  muted: (c) => ({ ...c, c: c.c * 0.5 }),
  vivid: (c) => ({ ...c, c: c.c * 1.35 + 0.02 }),
};

function shifted(colour: Oklch, da: number, db: number): Oklch {
  const lab: Oklab = toOklab(colour);
  return toOklch({ ...lab, a: lab.a + da, b: lab.b + db });
}

/** The OKLab colour of a colour term; undefined for another kind of term or an unknown id. */
export function targetColour(term: UnderstoodTerm): Lab | undefined {
  const entry = term.kind === 'colour' ? promptColour(term.id) : undefined;
  if (!entry) return undefined;
  let colour = toOklch(entry.hex);
  if (!colour) return undefined;
  for (const modifier of term.modifiers ?? []) colour = MODIFY[modifier](colour);
  // Chroma reduced (lightness and hue kept) until the colour is displayable.
  const { l, a, b } = toOklab(clampChroma({ ...colour, l: clamp01(colour.l) }, 'oklch'));
  return { l, a, b };
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
