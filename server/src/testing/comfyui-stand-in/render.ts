/**
 * What a node produces, instead of running a model: image and latent sizes follow the graph
 * (latents are 1/8, CR Upscale Image sizes as Comfyroll computes them ...), the pixels are the
 * input image resized and tinted by the seed, written as real PNG files with sharp. Loaders fail
 * at run time where the real ones do (IPAdapter and CLIP-Vision files missing).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import {
  isLink,
  type ComfyImageRef,
  type ComfyNode,
  type ComfyWorkflow,
} from '../../engines/comfyui/api-types.js';
import { withChunkAfterHeader } from '../../imaging/png-text.js';
import { annotatedPath, type Folders } from './folders.js';
import { runMaskNode, samplerInpaint } from './mask-nodes.js';
import { NodeException } from './node-exception.js';
import { classOf, type InstalledFiles } from './node-classes.js';
import { materialize, tileable, vaeRoundTrip, type MaskData, type Paintable } from './pixels.js';

export { NodeException };

/** An IMAGE: lazy (a source resized and tinted when saved) or, once a node needed them, pixels. */
export type ImageValue = { kind: 'image' } & Paintable;

/** A LATENT: its size /8, what it decodes to, and for inpainting the image and the noise mask. */
export type LatentValue = {
  kind: 'latent';
  /** The image VAEEncode took (inpainting repaints it). */
  encoded?: ImageValue;
  /** SetLatentNoiseMask's mask: 1 where the sampler repaints, 0 where it keeps. */
  noiseMask?: MaskData;
} & Paintable;

export type Value = ImageValue | LatentValue | ({ kind: 'mask' } & MaskData) | { kind: 'other' };

/**
 * Writes IMAGE values as numbered PNG files, as SaveImage and PreviewImage do, with the prompt
 * as JSON in a `prompt` tEXt chunk (ComfyUI's metadata, unless started with --disable-metadata).
 */
export type ImageWriter = (
  value: Value,
  prefix: string,
  type: 'output' | 'temp',
  prompt: ComfyWorkflow,
) => Promise<ComfyImageRef>;

/** A PNG with a Latin-1 tEXt chunk added after its header, as PIL's PngInfo.add_text writes. */
function withLatin1Text(png: Buffer, keyword: string, text: string): Buffer {
  const data = Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), Buffer.from(text, 'latin1')]);
  return withChunkAfterHeader(png, 'tEXt', data);
}

export function imageWriter(folders: Folders): ImageWriter {
  let imageCounter = 0;
  return async (value, prefix, type, prompt) => {
    if (value.kind !== 'image') throw new Error('SaveImage needs an IMAGE');
    const normalized = prefix.replace(/\\/g, '/');
    const subfolder = path.posix.dirname(normalized) === '.' ? '' : path.posix.dirname(normalized);
    const base = path.posix.basename(normalized) || 'ComfyUI';
    const filename = `${base}_${String(++imageCounter).padStart(5, '0')}_.png`;
    const dir = path.join(type === 'output' ? folders.output : folders.temp, subfolder);
    await fsp.mkdir(dir, { recursive: true });
    const hue = value.tint % 360;
    // Pixels a node computed are written as they are (their tint is applied by materialize).
    const png = value.raw
      ? await sharp((await materialize(value)).data, {
          raw: { width: value.width, height: value.height, channels: 3 },
        })
          .png({ compressionLevel: 1 })
          .toBuffer()
      : await (
          value.source
            ? sharp(value.source, { limitInputPixels: false })
                .resize(value.width, value.height, { fit: 'fill' })
                .removeAlpha()
            : sharp({
                create: {
                  width: value.width,
                  height: value.height,
                  channels: 3,
                  background: '#8a6a4a',
                },
              })
        )
          .modulate({ hue })
          .png({ compressionLevel: 1 })
          .toBuffer();
    // Python's json.dumps escapes non-ASCII: the text is ASCII.
    const json = JSON.stringify(prompt).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    await fsp.writeFile(path.join(dir, filename), withLatin1Text(png, 'prompt', json));
    return { filename, subfolder, type };
  };
}

/** What running one node needs from the prompt being executed. */
export interface NodeRun {
  node: ComfyNode;
  /** The whole prompt (SaveImage embeds it in its PNG). */
  prompt: ComfyWorkflow;
  /** The output values of the nodes run so far, by node id. */
  values: Map<string, Value[]>;
  folders: Folders;
  installed: InstalledFiles;
  save: ImageWriter;
  /** Sampling steps reported at most per sampler. */
  maxSteps: number;
  /** Reports `max` progress steps (with previews or not); throws when the prompt must stop. */
  progress(max: number, preview: boolean): Promise<void>;
}

/** A node's output values, and the images it saved (SaveImage, PreviewImage). */
export interface NodeResult {
  out: Value[];
  images?: ComfyImageRef[];
}

const roundUp = (n: number, m: number) => (n % m === 0 ? n : n + (m - (n % m)));

/** An image or latent scaled by a factor, its sides rounded (ImageScaleBy, LatentUpscaleBy). */
const scaledBy = <T extends { width: number; height: number }>(value: T, by: number): T => ({
  ...value,
  width: Math.round(value.width * by),
  height: Math.round(value.height * by),
});

export async function runNode(run: NodeRun): Promise<NodeResult> {
  const { node } = run;
  const input = (name: string): Value => {
    const linked = node.inputs[name];
    if (!isLink(linked)) return { kind: 'other' };
    return run.values.get(linked[0])?.[linked[1]] ?? { kind: 'other' };
  };
  const num = (name: string) => Number(node.inputs[name]);
  const other = (): Value[] => classOf(node).returns.map(() => ({ kind: 'other' }) as Value);
  switch (node.class_type) {
    case 'IPAdapterUnifiedLoader':
      // The unified loader looks its files up only now: a missing one fails the running prompt.
      if (run.installed.clipVisionModels.length === 0)
        throw new NodeException('ClipVision model not found.');
      if (run.installed.ipadapterModels.length === 0) {
        throw new NodeException('IPAdapter model not found.');
      }
      return { out: other() };
    case 'LoadImage': {
      const file = annotatedPath(run.folders, String(node.inputs.image)) ?? '';
      const source = await fsp.readFile(file);
      const meta = await sharp(source).metadata();
      return {
        out: [
          { kind: 'image', width: meta.width ?? 1, height: meta.height ?? 1, source, tint: 0 },
          { kind: 'other' },
        ],
      };
    }
    case 'EmptyLatentImage':
      return {
        out: [
          {
            kind: 'latent',
            width: Math.floor(num('width') / 8),
            height: Math.floor(num('height') / 8),
            tint: 0,
          },
        ],
      };
    case 'VAEEncode': {
      const image = input('pixels');
      if (image.kind !== 'image') return { out: other() };
      return {
        out: [
          {
            kind: 'latent',
            width: Math.floor(image.width / 8),
            height: Math.floor(image.height / 8),
            ...(image.source ? { source: image.source } : {}),
            ...(image.raw ? { raw: image.raw } : {}),
            tint: image.tint,
            encoded: image,
          },
        ],
      };
    }
    case 'LatentUpscaleBy': {
      const latent = input('samples');
      if (latent.kind !== 'latent') return { out: other() };
      return { out: [scaledBy(latent, num('scale_by'))] };
    }
    case 'KSampler': {
      const latent = input('latent_image');
      await run.progress(Math.min(run.maxSteps, num('steps')), true);
      if (latent.kind !== 'latent') return { out: other() };
      if (latent.noiseMask) return { out: [await samplerInpaint(latent, num('seed'))] };
      return { out: [{ ...latent, tint: latent.tint + (num('seed') % 360) }] };
    }
    case 'VAEDecode':
    case 'CircularVAEDecode': {
      const latent = input('samples');
      if (latent.kind !== 'latent') return { out: other() };
      const decoded: ImageValue = {
        kind: 'image',
        width: latent.width * 8,
        height: latent.height * 8,
        tint: latent.tint,
        ...(latent.source ? { source: latent.source } : {}),
        // A VAE's round trip is not exact: what a mask keeps is only kept by pasting it back.
        ...(latent.raw ? { raw: vaeRoundTrip(latent.raw) } : {}),
      };
      const tiling = String(node.inputs.tiling ?? 'disable');
      if (node.class_type !== 'CircularVAEDecode' || tiling === 'disable')
        return { out: [decoded] };
      // Tiling on: the image tiles, as the circular padding makes a real decode's.
      const raw = tileable(await materialize(decoded), tiling !== 'y_only', tiling !== 'x_only');
      return { out: [{ ...decoded, tint: 0, raw }] };
    }
    case 'ImageScale': {
      const image = input('image');
      if (image.kind !== 'image') return { out: other() };
      let width = num('width');
      let height = num('height');
      if (width === 0 && height === 0) [width, height] = [image.width, image.height];
      else if (width === 0) width = Math.round((image.width * height) / image.height);
      else if (height === 0) height = Math.round((image.height * width) / image.width);
      return { out: [{ ...image, width, height }] };
    }
    case 'ImageScaleBy': {
      const image = input('image');
      if (image.kind !== 'image') return { out: other() };
      return { out: [scaledBy(image, num('scale_by'))] };
    }
    case 'ImageUpscaleWithModel': {
      const image = input('image');
      await run.progress(4, false);
      if (image.kind !== 'image') return { out: other() };
      return { out: [{ ...image, width: image.width * 4, height: image.height * 4 }] };
    }
    case 'CR Upscale Image': {
      const image = input('image');
      await run.progress(4, false);
      if (image.kind !== 'image') return { out: other() };
      // Comfyroll: rescale truncates and ignores rounding_modulus; resize rounds both sides up.
      if (node.inputs.mode === 'resize') {
        const modulus = num('rounding_modulus');
        const width = num('resize_width');
        const height = Math.trunc(width * (image.height / image.width));
        return {
          out: [
            { ...image, width: roundUp(width, modulus), height: roundUp(height, modulus) },
            { kind: 'other' },
          ],
        };
      }
      const factor = num('rescale_factor');
      return {
        out: [
          {
            ...image,
            width: Math.trunc(image.width * factor),
            height: Math.trunc(image.height * factor),
          },
          { kind: 'other' },
        ],
      };
    }
    case 'SaveImage':
    case 'PreviewImage': {
      const saved = await run.save(
        input('images'),
        node.class_type === 'SaveImage' ? String(node.inputs.filename_prefix) : 'ComfyUI_temp',
        node.class_type === 'SaveImage' ? 'output' : 'temp',
        run.prompt,
      );
      return { out: other(), images: [saved] };
    }
    default: {
      const out = await runMaskNode(node, input, num);
      return { out: out ?? other() };
    }
  }
}
