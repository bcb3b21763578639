/**
 * The workflow templates (ComfyUI API format) and how the adapter fills them: each input it sets
 * is found by node id and input name (docs/comfyui.md lists them). The ids of the nodes carrying
 * metadata are the metadata's own numbers: CLIPTextEncode "585" (cliptextencode_585), CR Upscale
 * Image "711" and "701" (rescale_factor_cr711/cr701), LatentUpscaleBy "707" (scale_by_latent707),
 * ImageScaleBy "692" (scale_by_image692). A template that lacks a node or input the adapter
 * needs is refused when it is loaded, with the node named.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PreviewSettings } from '@tessera/contract';
import { SERVER_ROOT } from '../../runtime/paths.js';
import { isLink, isRecord, type ComfyWorkflow } from './api-types.js';
import { WorkflowTemplateError } from './errors.js';
import {
  HD_NODES,
  PREVIEW_NODES,
  SERIES_NODES,
  TEMPLATE_NODES,
  type NodeBinding,
  type TemplateName,
} from './template-nodes.js';

/** Callers take the node bindings from here too. */
export * from './template-nodes.js';

/** The templates shipped with Tessera; COMFYUI_WORKFLOWS_DIR may hold replacements. */
export const DEFAULT_WORKFLOWS_DIR = path.join(
  SERVER_ROOT,
  'src',
  'engines',
  'comfyui',
  'workflows',
);

export interface WorkflowTemplate {
  name: TemplateName;
  /** The file it was read from. */
  file: string;
  workflow: ComfyWorkflow;
}

export type WorkflowTemplates = Record<TemplateName, WorkflowTemplate>;

/**
 * Reads and checks preview.json, hd.json and series.json: from `dir` where it holds them (the operator's
 * COMFYUI_WORKFLOWS_DIR), else the shipped ones. Throws a WorkflowTemplateError naming the file
 * and the node when a template cannot be used.
 */
export function loadWorkflowTemplates(dir?: string): WorkflowTemplates {
  if (dir !== undefined && !fs.existsSync(dir)) {
    throw new WorkflowTemplateError(`COMFYUI_WORKFLOWS_DIR ${dir} does not exist`);
  }
  const load = (name: TemplateName): WorkflowTemplate => {
    const own = dir === undefined ? undefined : path.join(dir, `${name}.json`);
    const file =
      own !== undefined && fs.existsSync(own)
        ? own
        : path.join(DEFAULT_WORKFLOWS_DIR, `${name}.json`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      throw new WorkflowTemplateError(
        `Workflow template ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { name, file, workflow: checkTemplate(name, parsed, file) };
  };
  return { preview: load('preview'), hd: load('hd'), series: load('series') };
}

/** The workflow if it is API format with every node and input the adapter fills; else throws. */
export function checkTemplate(
  name: TemplateName,
  value: unknown,
  file = `${name}.json`,
): ComfyWorkflow {
  const fail = (message: string): never => {
    throw new WorkflowTemplateError(`Workflow template ${file}: ${message}`);
  };
  if (!isRecord(value)) return fail('is not a JSON object of nodes');
  if (Array.isArray(value.nodes) && Array.isArray(value.links)) {
    return fail(
      'is in ComfyUI\'s UI format; export it with "Save (API Format)" (or Workflow > Export (API))',
    );
  }
  for (const [id, node] of Object.entries(value)) {
    if (!isRecord(node) || typeof node.class_type !== 'string' || !isRecord(node.inputs)) {
      return fail(`node "${id}" is not an API format node ({"class_type", "inputs"})`);
    }
  }
  const workflow = value as ComfyWorkflow;
  for (const binding of Object.values(TEMPLATE_NODES[name])) {
    const node = workflow[binding.id];
    if (!node) {
      if (binding.optional) continue;
      fail(`lacks node "${binding.id}" (${binding.classType}: ${binding.purpose})`);
      continue;
    }
    for (const input of binding.inputs) {
      if (!(input in node.inputs)) {
        fail(
          `node "${binding.id}" (${node.class_type}, ${binding.purpose}) lacks the input "${input}"`,
        );
      }
      if (isLink(node.inputs[input])) {
        fail(
          `node "${binding.id}" (${node.class_type}) input "${input}" is a link; Tessera sets it to a value`,
        );
      }
    }
  }
  for (const [id, node] of Object.entries(workflow)) {
    for (const [input, linked] of Object.entries(node.inputs)) {
      if (isLink(linked) && !(linked[0] in workflow)) {
        fail(
          `node "${id}" (${node.class_type}) input "${input}" links to node "${linked[0]}", which is missing`,
        );
      }
    }
  }
  return workflow;
}

/**
 * What a preview prompt is filled with: the settings (the mask is applied to the uploaded
 * reference, not in the prompt), after the reference is uploaded.
 */
export interface PreviewInputs extends Omit<PreviewSettings, 'mask'> {
  /** The LoadImage name of the uploaded reference ("subfolder/name"). */
  referenceImage: string;
}

export function fillPreview(template: WorkflowTemplate, inputs: PreviewInputs): ComfyWorkflow {
  const prompt = structuredClone(template.workflow);
  const set = setter(prompt, template);
  const nodes = PREVIEW_NODES;
  set(nodes.reference, { image: inputs.referenceImage });
  setPrompts(set, nodes, inputs);
  set(nodes.size, { width: inputs.width, height: inputs.height });
  set(nodes.sampler, {
    seed: inputs.seed,
    cfg: inputs.imaginationWeight,
    denoise: inputs.similarity,
  });
  setTiling(set, nodes, inputs.seamless);
  return prompt;
}

/** What an HD prompt is filled with (UpscaleParams, after the LD image is uploaded). */
export interface HdInputs {
  sourceImage: string;
  /** The LD image's size, for the node that brings the detail pass back to it. */
  sourceWidth: number;
  sourceHeight: number;
  rescale_factor_cr711: number;
  scale_by_latent707: number;
  rescale_factor_cr701: number;
  scale_by_image692: number;
  seed: number;
  seamless: boolean;
}

export function fillHd(template: WorkflowTemplate, inputs: HdInputs): ComfyWorkflow {
  const prompt = structuredClone(template.workflow);
  const set = setter(prompt, template);
  const nodes = HD_NODES;
  set(nodes.source, { image: inputs.sourceImage });
  set(nodes.cr711, { rescale_factor: inputs.rescale_factor_cr711 });
  set(nodes.latent707, { scale_by: inputs.scale_by_latent707 });
  set(nodes.sampler, { seed: inputs.seed });
  setTiling(set, nodes, inputs.seamless);
  set(nodes.ldSize, { width: inputs.sourceWidth, height: inputs.sourceHeight });
  set(nodes.cr701, { rescale_factor: inputs.rescale_factor_cr701 });
  set(nodes.image692, { scale_by: inputs.scale_by_image692 });
  return prompt;
}

/**
 * Where a face of a series is repainted (the series template's mask), in the pixels of the latent:
 * VAEEncode crops the image to multiples of 8, centred (ComfyUI's vae_encode_crop_pixels), so
 * the mask is `width` x `height` and the repainted image goes back at `offsetX`, `offsetY`. The
 * outer `band` (1/8 of the shorter side) is kept, 0; inside it the mask rises over `feather`
 * pixels to 1, the interior repainted. On the face the band is at least `band` wide on each side.
 */
export interface SeriesMask {
  width: number;
  height: number;
  band: number;
  feather: number;
  offsetX: number;
  offsetY: number;
}

/** The share of the shorter side every face keeps of face 1, on each side. */
export const SERIES_BAND_SHARE = 1 / 8;

export function seriesMask(width: number, height: number): SeriesMask {
  const latentWidth = Math.floor(width / 8) * 8;
  const latentHeight = Math.floor(height / 8) * 8;
  const band = Math.round(Math.min(latentWidth, latentHeight) * SERIES_BAND_SHARE);
  return {
    width: latentWidth,
    height: latentHeight,
    band,
    feather: Math.max(1, Math.round(band / 2)),
    offsetX: Math.floor((width % 8) / 2),
    offsetY: Math.floor((height % 8) / 2),
  };
}

/** What a face of a series (2..N) is filled with, after face 1 is uploaded. */
export interface SeriesInputs extends Omit<PreviewSettings, 'mask' | 'similarity'> {
  /** The LoadImage name of face 1, uploaded. */
  faceImage: string;
}

export function fillSeries(template: WorkflowTemplate, inputs: SeriesInputs): ComfyWorkflow {
  const prompt = structuredClone(template.workflow);
  const set = setter(prompt, template);
  const nodes = SERIES_NODES;
  const mask = seriesMask(inputs.width, inputs.height);
  const inner = (side: number) => Math.max(1, side - 2 * mask.band);
  set(nodes.face, { image: inputs.faceImage });
  setPrompts(set, nodes, inputs);
  set(nodes.frame, { width: mask.width, height: mask.height });
  set(nodes.interior, { width: inner(mask.width), height: inner(mask.height) });
  const f = mask.feather;
  set(nodes.feather, { left: f, top: f, right: f, bottom: f });
  set(nodes.mask, { x: mask.band, y: mask.band });
  set(nodes.sampler, { seed: inputs.seed, cfg: inputs.imaginationWeight });
  setTiling(set, nodes, inputs.seamless);
  set(nodes.paste, { x: mask.offsetX, y: mask.offsetY });
  return prompt;
}

type Setter = ReturnType<typeof setter>;

/** Seamless output: both tiling switches on (the model's padding and the circular VAE decode). */
function setTiling(
  set: Setter,
  nodes: { seamlessModel: NodeBinding; circularVae: NodeBinding },
  seamless: boolean,
): void {
  const tiling = seamless ? 'enable' : 'disable';
  set(nodes.seamlessModel, { tiling });
  set(nodes.circularVae, { tiling });
}

/** The prompts and the IPAdapter weights, filled alike in the preview and the series templates. */
function setPrompts(
  set: Setter,
  nodes: Record<'positive' | 'negative' | 'adherence' | 'style', NodeBinding>,
  inputs: Pick<PreviewSettings, 'positivePrompt' | 'negativePrompt' | 'promptAdherence' | 'style'>,
): void {
  set(nodes.positive, { text: inputs.positivePrompt });
  set(nodes.negative, { text: inputs.negativePrompt });
  set(nodes.adherence, { weight: inputs.promptAdherence });
  set(nodes.style, { weight: inputs.style });
}

/** Sets inputs of a bound node by id and input name; a missing required node is an error. */
function setter(prompt: ComfyWorkflow, template: WorkflowTemplate) {
  return (binding: NodeBinding, values: Record<string, unknown>): void => {
    const node = prompt[binding.id];
    if (!node) {
      if (binding.optional) return;
      throw new WorkflowTemplateError(
        `Workflow template ${template.file} lacks node "${binding.id}" (${binding.classType}: ${binding.purpose})`,
      );
    }
    for (const [input, value] of Object.entries(values)) node.inputs[input] = value;
  };
}
