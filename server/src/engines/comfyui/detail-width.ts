/**
 * How wide the detail of an HD prompt is (honest detail, issue 26): the width of the last image a
 * network made, before the plain resamples that bring it to the ordered size.
 *
 * ComfyUI reports only the saved image, so it is read from the filled prompt. From the output
 * node back, plain resamples (ImageScaleBy, ImageScale) are enlargement; the node before them is
 * the last that made detail. In the shipped template that is CR Upscale Image "701": its model
 * upscales ×4 and Comfyroll resamples the result to the input × rescale_factor (truncated), so
 * the detail kept is that width, of an input that ImageScale "712" brought to the LD size. Any
 * other shape (an operator's template with another last stage, or an input whose width the
 * prompt does not state) has no width Tessera can know: undefined, and nothing is recorded.
 */
import { isLink, type ComfyNode, type ComfyWorkflow } from './api-types.js';
import { HD_NODES } from './template-nodes.js';

/** Nodes that only resample: what they output is enlargement of their input. */
const RESAMPLES = new Set(['ImageScaleBy', 'ImageScale']);

/** The width of the detail `prompt` generates from an LD image `ldWidth` px wide, or undefined. */
export function hdDetailWidth(prompt: ComfyWorkflow, ldWidth: number): number | undefined {
  let id = linkedFrom(prompt[HD_NODES.output.id], 'images');
  // A bound on the walk: a malformed template with a cycle ends here instead of looping.
  for (let steps = 0; id !== undefined && steps < Object.keys(prompt).length; steps++) {
    const node = prompt[id];
    if (!node) return undefined;
    if (!RESAMPLES.has(node.class_type)) {
      return node.class_type === 'CR Upscale Image'
        ? crUpscaleWidth(prompt, node, ldWidth)
        : undefined;
    }
    id = linkedFrom(node, 'image');
  }
  return undefined;
}

/** CR Upscale Image's output width as Comfyroll computes it (functions_upscale.py). */
function crUpscaleWidth(
  prompt: ComfyWorkflow,
  node: ComfyNode,
  ldWidth: number,
): number | undefined {
  const {
    mode,
    rescale_factor: factor,
    resize_width: width,
    rounding_modulus: modulus,
  } = node.inputs;
  if (mode === 'resize' && typeof width === 'number' && typeof modulus === 'number') {
    return width % modulus === 0 ? width : width + (modulus - (width % modulus));
  }
  if (mode !== 'rescale' || typeof factor !== 'number') return undefined;
  const input = widthOf(prompt, linkedFrom(node, 'image'), ldWidth);
  return input === undefined ? undefined : Math.trunc(input * factor);
}

/** The width of an image the prompt states outright: the LD image, or an ImageScale to a width. */
function widthOf(
  prompt: ComfyWorkflow,
  id: string | undefined,
  ldWidth: number,
): number | undefined {
  if (id === HD_NODES.source.id) return ldWidth;
  const node = id === undefined ? undefined : prompt[id];
  const width = node?.inputs.width;
  if (node?.class_type === 'ImageScale' && typeof width === 'number' && width > 0) return width;
  return undefined;
}

/** The id of the node whose output feeds `input` of `node`. */
function linkedFrom(node: ComfyNode | undefined, input: string): string | undefined {
  const link = node?.inputs[input];
  return isLink(link) ? String(link[0]) : undefined;
}
