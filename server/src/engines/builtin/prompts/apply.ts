/**
 * The prompts in the builtin engine (issue 27): what the understood words ask of the reference,
 * done to the working reference before synthesis. Pure, typed arrays; runs in the worker.
 *
 * Before synthesis rather than after, so that: every face of a series is made from the same
 * prepared reference and the faces' shared edges stay identical; a seamless output stays
 * seamless (nothing position-dependent is laid over the torus afterwards); and the negative
 * prompt's colours can be kept out of the patches quilting copies. Quilting copies the
 * reference's pixels, so its output carries their colours (measured in apply.test.ts).
 *
 * The order: source pixels dominated by an avoided colour are masked out (quilting's mask, when
 * enough remains), the colours are moved to the named ones, the finish is applied, and the
 * pixels still near an avoided colour are pulled away from it (unless it is near a named one). Scale is the worker's: it resizes
 * the prepared reference (scale.ts).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import {
  promptRequest,
  promptScaleFactor,
  understandPrompts,
  type PreviewSettings,
  type PromptRequest,
} from '@tessera/contract';
import { FINISH_EFFECTS, type FinishEffect } from '../../../imaging/finishes.js';
import type { RawImage } from '../../../imaging/raw-image.js';
import { MASK_ALPHA_THRESHOLD } from '../../engine.js';
import { maskRegion } from '../quilting/mask-region.js';
import { patchSize, type SynthesisOptions } from '../quilting/synthesize.js';
import { shiftColours } from './colour-shift.js';
import { closeness, dominated, pullAway } from './exclusion.js';
import { applyFinish } from './finish.js';
import { fromOklab, toOklab, type Lab } from './oklab.js';
import { targetColour } from './target-colour.js';

export { scaledWorkingSize } from './scale.js';

/**
 * Patches copied from outside an avoided colour must leave at least this share of the patch
 * positions, else the colour is not masked out (only pulled away from).
 */
const MIN_ALLOWED_SHARE = 0.1;

/** What the prompts ask, ready to apply. */
export interface PromptPlan {
  request: PromptRequest;
  /** The colours to move to (OKLab), at most two. */
  targets: Lab[];
  /** The colours to keep away from (OKLab). */
  avoid: Lab[];
  finish?: FinishEffect;
  /** How many times larger the features become (1: as they are). */
  scale: number;
}

/** The plan of a job's prompts. */
export function promptPlan(
  settings: Pick<PreviewSettings, 'positivePrompt' | 'negativePrompt'>,
): PromptPlan {
  const request = promptRequest(
    understandPrompts(settings.positivePrompt, settings.negativePrompt),
  );
  const colours = (terms: PromptRequest['colours']) =>
    terms.map(targetColour).filter((c): c is Lab => c !== undefined);
  return {
    request,
    targets: colours(request.colours).slice(0, 2),
    avoid: colours(request.avoid),
    ...(request.finish && { finish: FINISH_EFFECTS[request.finish] }),
    scale: request.scale ? promptScaleFactor(request.scale) : 1,
  };
}

/** The reference with the prompts' colours and finish, and the options to quilt it with. */
export interface PreparedReference {
  reference: RawImage;
  /** The job's options; `mask` on when an avoided colour is masked out. */
  options: SynthesisOptions;
}

/** The working reference prepared as `plan` asks (unchanged when it asks nothing of the pixels). */
export function applyPrompts(
  reference: RawImage,
  options: SynthesisOptions,
  plan: PromptPlan,
): PreparedReference {
  if (plan.targets.length === 0 && plan.avoid.length === 0 && !plan.finish) {
    return { reference, options };
  }
  const planes = toOklab(reference);
  const n = reference.width * reference.height;
  // Alpha: the mask as the job has it, or opaque when it has none (so turning it on only ever
  // masks the avoided colour).
  const alpha = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) alpha[i * 4 + 3] = options.mask ? reference.data[i * 4 + 3]! : 255;
  let masked = options.mask;
  if (plan.avoid.length > 0 && maskAvoided(planes, plan.avoid, alpha, reference, options)) {
    masked = true;
  }
  const counted = masked ? Uint8Array.from({ length: n }, (_, i) => opaque(alpha, i)) : undefined;
  shiftColours(planes, plan.targets, counted);
  if (plan.finish) applyFinish(planes, plan.finish, options.seed, counted);
  // An avoided colour near one the positive prompt asks for is not pulled away from: the asked
  // colour wins ("terracotta", not "red", stays terracotta).
  const near = (avoided: Lab) => plan.targets.some((t) => closeness(t.l, t.a, t.b, avoided) > 0);
  pullAway(
    planes,
    plan.avoid.filter((avoided) => !near(avoided)),
  );
  return { reference: fromOklab(planes, alpha), options: { ...options, mask: masked } };
}

/**
 * Masks out (alpha 0 in `alpha`) the source pixels dominated by the avoided colours, over a
 * window of the patch's side, if enough patch positions remain; whether it did.
 */
function maskAvoided(
  planes: ReturnType<typeof toOklab>,
  avoid: readonly Lab[],
  alpha: Uint8Array,
  reference: RawImage,
  options: SynthesisOptions,
): boolean {
  const P = patchSize(reference, options);
  const excluded = dominated(planes, avoid, P);
  if (!excluded) return false;
  const trial = new Uint8Array(alpha);
  for (let i = 0; i < excluded.length; i++) if (excluded[i] === 1) trial[i * 4 + 3] = 0;
  const region = maskRegion({ data: trial, width: reference.width, height: reference.height }, P);
  if (region.count < MIN_ALLOWED_SHARE * region.total) return false;
  alpha.set(trial);
  return true;
}

function opaque(alpha: Uint8Array, i: number): number {
  return alpha[i * 4 + 3]! >= MASK_ALPHA_THRESHOLD ? 1 : 0;
}
