/**
 * What a ComfyUI server needs for the workflow templates, checked against its GET /object_info:
 * every node type the templates use, every list value they name (checkpoints, upscale models,
 * samplers ...), and the IPAdapter and CLIP-Vision files the IPAdapter unified loader's preset
 * picks by name pattern at run time. ComfyUI's validation catches a missing checkpoint when the
 * prompt is queued, but a missing IPAdapter or CLIP-Vision file only while it runs: checking
 * before any job goes there keeps such a server out with a readable reason.
 */
import { isLink, type ComfyWorkflow, type ObjectInfo } from './api-types.js';
import { TEMPLATE_NODES, type TemplateName } from './template-nodes.js';

/** One list value a template names: node 711's upscale_model '4x-UltraSharp.pth'. */
interface ListValue {
  template: TemplateName;
  nodeId: string;
  classType: string;
  input: string;
  value: string;
}

interface PresetNeed {
  preset: string;
  /** Whether the checkpoint is SDXL (the loader picks the file by the model it gets). */
  sdxl: boolean;
}

export interface TemplateNeeds {
  nodeTypes: string[];
  values: ListValue[];
  presets: PresetNeed[];
}

/**
 * The IPAdapter file name patterns of ComfyUI_IPAdapter_plus's unified loader, by the start of
 * the preset's name (lower case): [SDXL, SD 1.5]; null where the preset has no such model.
 */
const IPADAPTER_FILES: [string, RegExp | null, RegExp | null][] = [
  ['light', null, /sd15.light(.v11)?\.(safetensors|bin)$/i],
  [
    'standard',
    /ip.adapter.sdxl.vit.h\.(safetensors|bin)$/i,
    /ip.adapter.sd15\.(safetensors|bin)$/i,
  ],
  ['vit-g', /ip.adapter.sdxl\.(safetensors|bin)$/i, /sd15.vit.g\.(safetensors|bin)$/i],
  ['plus (', /plus.sdxl.vit.h\.(safetensors|bin)$/i, /ip.adapter.plus.sd15\.(safetensors|bin)$/i],
  ['plus face', /plus.face.sdxl.vit.h\.(safetensors|bin)$/i, /plus.face.sd15\.(safetensors|bin)$/i],
  ['full', null, /full.face.sd15\.(safetensors|bin)$/i],
];

/** The CLIP-Vision file the same loader looks for: ViT-bigG for the vit-g preset, else ViT-H. */
function clipVisionPattern(preset: string): RegExp {
  return preset.toLowerCase().startsWith('vit-g')
    ? /(ViT.bigG.14.*39B.b160k|ipadapter.*sdxl|sdxl.*model)\.(bin|safetensors)/i
    : /(ViT.H.14.*s32B.b79K|ipadapter.*sd15|sd1.?5.*model)\.(bin|safetensors)/i;
}

/** The needs of the templates; inputs Tessera fills itself are left out. */
export function templateNeeds(templates: Record<TemplateName, ComfyWorkflow>): TemplateNeeds {
  const nodeTypes = new Set<string>();
  const values: ListValue[] = [];
  const presets: PresetNeed[] = [];
  for (const [template, workflow] of Object.entries(templates) as [TemplateName, ComfyWorkflow][]) {
    const filled = new Set(
      Object.values(TEMPLATE_NODES[template]).flatMap((b) => b.inputs.map((i) => `${b.id}:${i}`)),
    );
    const sdxl = Object.values(workflow).some(
      (node) =>
        node.class_type.startsWith('CheckpointLoader') &&
        /xl/i.test(String(node.inputs.ckpt_name ?? '')),
    );
    for (const [nodeId, node] of Object.entries(workflow)) {
      nodeTypes.add(node.class_type);
      for (const [input, value] of Object.entries(node.inputs)) {
        if (isLink(value) || typeof value !== 'string' || filled.has(`${nodeId}:${input}`))
          continue;
        values.push({ template, nodeId, classType: node.class_type, input, value });
      }
      if (node.class_type === 'IPAdapterUnifiedLoader' && typeof node.inputs.preset === 'string') {
        presets.push({ preset: node.inputs.preset, sdxl });
      }
    }
  }
  return { nodeTypes: [...nodeTypes].sort(), values, presets };
}

/** The values a COMBO input offers (both the list form and v3's ["COMBO", {options}]). */
function comboValues(spec: unknown): string[] | undefined {
  if (!Array.isArray(spec)) return undefined;
  if (Array.isArray(spec[0])) return spec[0].map(String);
  const options = (spec[1] as { options?: unknown } | undefined)?.options;
  if (spec[0] === 'COMBO' && Array.isArray(options)) return options.map(String);
  return undefined;
}

function inputSpec(info: ObjectInfo, classType: string, input: string): unknown {
  const node = info[classType];
  return node?.input.required?.[input] ?? node?.input.optional?.[input];
}

/** What the server described by `info` lacks for `needs`, one readable line each. */
export function missingFor(info: ObjectInfo, needs: TemplateNeeds): string[] {
  const missing: string[] = [];
  for (const type of needs.nodeTypes) {
    if (!(type in info)) missing.push(`node type "${type}" (a custom node pack not installed?)`);
  }
  for (const need of needs.values) {
    if (!(need.classType in info)) continue;
    const offered = comboValues(inputSpec(info, need.classType, need.input));
    if (offered && !offered.includes(need.value)) {
      missing.push(
        `"${need.value}" for ${need.input} of node ${need.nodeId} (${need.classType}, ${need.template}.json)`,
      );
    }
  }
  const ipadapterFiles = comboValues(inputSpec(info, 'IPAdapterModelLoader', 'ipadapter_file'));
  const clipVisionFiles = comboValues(inputSpec(info, 'CLIPVisionLoader', 'clip_name'));
  for (const { preset, sdxl } of needs.presets) {
    const rule = IPADAPTER_FILES.find(([start]) => preset.toLowerCase().startsWith(start));
    const pattern = rule && (sdxl ? rule[1] : rule[2]);
    if (pattern && ipadapterFiles && !ipadapterFiles.some((file) => pattern.test(file))) {
      missing.push(
        `an IPAdapter model for the preset "${preset}" (models/ipadapter/, a name matching ${pattern.source})`,
      );
    }
    const clip = clipVisionPattern(preset);
    if (clipVisionFiles && !clipVisionFiles.some((file) => clip.test(file))) {
      missing.push(
        `a CLIP-Vision model for the preset "${preset}" (models/clip_vision/, a name matching ${clip.source})`,
      );
    }
  }
  return [...new Set(missing)];
}
