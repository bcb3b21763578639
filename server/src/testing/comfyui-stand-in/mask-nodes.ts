/**
 * What the mask and inpainting nodes produce in the stand-in (mask-classes.ts), with real pixels
 * (pixels.ts): masks as ComfyUI computes them, ImageCompositeMasked's blend, and the KSampler's
 * inpainting, which repaints only where SetLatentNoiseMask's mask is above 0.
 */
import type { ComfyNode } from '../../engines/comfyui/api-types.js';
import {
  compositeImages,
  cropToLatent,
  featherMask,
  inpaint,
  maskComposite,
  materialize,
  resizeMask,
  solidMask,
  type MaskData,
  type Paintable,
  type Raw,
} from './pixels.js';
import { NodeException } from './node-exception.js';
import type { ImageValue, LatentValue, Value } from './render.js';

type Mask = { kind: 'mask' } & MaskData;

const mask = (data: MaskData): Mask => ({ kind: 'mask', ...data });
const pixels = (raw: Raw): ImageValue => ({
  kind: 'image',
  width: raw.width,
  height: raw.height,
  tint: 0,
  raw,
});

/** The node's outputs, or undefined for a node that is not a mask or inpainting node. */
export async function runMaskNode(
  node: ComfyNode,
  input: (name: string) => Value,
  num: (name: string) => number,
): Promise<Value[] | undefined> {
  const maskIn = (name: string): Mask | undefined => {
    const value = input(name);
    return value.kind === 'mask' ? value : undefined;
  };
  switch (node.class_type) {
    case 'SolidMask':
      return [mask(solidMask(num('value'), num('width'), num('height')))];
    case 'FeatherMask': {
      const from = maskIn('mask');
      if (!from) return [{ kind: 'other' }];
      const sides = {
        left: num('left'),
        top: num('top'),
        right: num('right'),
        bottom: num('bottom'),
      };
      return [mask(featherMask(from, sides))];
    }
    case 'MaskComposite': {
      const destination = maskIn('destination');
      const source = maskIn('source');
      if (!destination || !source) return [{ kind: 'other' }];
      const operation = String(node.inputs.operation);
      return [mask(maskComposite(destination, source, num('x'), num('y'), operation))];
    }
    case 'InvertMask': {
      const from = maskIn('mask');
      if (!from) return [{ kind: 'other' }];
      return [mask({ ...from, data: from.data.map((v) => Math.fround(1 - v)) })];
    }
    case 'ImageToMask': {
      const image = input('image');
      if (image.kind !== 'image') return [{ kind: 'other' }];
      const channel = ['red', 'green', 'blue'].indexOf(String(node.inputs.channel));
      // An IMAGE has three channels: alpha is out of range, as in ComfyUI.
      if (channel < 0) {
        throw new NodeException(
          'index 3 is out of bounds for dimension 3 with size 3',
          'IndexError',
        );
      }
      const raw = await materialize(image);
      const data = new Float32Array(raw.width * raw.height);
      for (let i = 0; i < data.length; i++) {
        data[i] = Math.fround((raw.data[i * 3 + channel] ?? 0) / 255);
      }
      return [mask({ width: raw.width, height: raw.height, data })];
    }
    case 'MaskToImage': {
      const from = maskIn('mask');
      if (!from) return [{ kind: 'other' }];
      const data = Buffer.alloc(from.width * from.height * 3);
      from.data.forEach((v, i) => data.fill(Math.trunc(Math.fround(v * 255)), i * 3, i * 3 + 3));
      return [pixels({ data, width: from.width, height: from.height })];
    }
    case 'SetLatentNoiseMask': {
      const latent = input('samples');
      const noiseMask = maskIn('mask');
      if (latent.kind !== 'latent' || !noiseMask) return [{ kind: 'other' }];
      return [{ ...latent, noiseMask }];
    }
    case 'VAEEncodeForInpaint':
      return [await encodeForInpaint(input('pixels'), maskIn('mask'))];
    case 'ImageCompositeMasked': {
      const destination = input('destination');
      const source = input('source');
      if (destination.kind !== 'image' || source.kind !== 'image') return [{ kind: 'other' }];
      const resized =
        node.inputs.resize_source === true
          ? { ...source, width: destination.width, height: destination.height }
          : source;
      const raw = compositeImages(
        await materialize(destination),
        await materialize(resized),
        num('x'),
        num('y'),
        maskIn('mask'),
      );
      return [pixels(raw)];
    }
    default:
      return undefined;
  }
}

/**
 * VAEEncodeForInpaint, simplified: the image cropped as VAEEncode crops it, grey (0.5) where the
 * mask is over one half, and that rounded mask as the noise mask (grow_mask_by left out).
 */
async function encodeForInpaint(image: Value, noiseMask: Mask | undefined): Promise<Value> {
  if (image.kind !== 'image' || !noiseMask) return { kind: 'other' };
  const raw = cropToLatent(await materialize(image));
  const rounded = mask({ ...noiseMask, data: noiseMask.data.map((v) => Math.round(v)) });
  const scaled = resizeMask(rounded, raw.width, raw.height);
  const data = Buffer.from(raw.data);
  scaled.data.forEach((v, i) => {
    if (v > 0.5) data.fill(127, i * 3, i * 3 + 3);
  });
  const encoded = pixels({ ...raw, data });
  return {
    kind: 'latent',
    width: raw.width / 8,
    height: raw.height / 8,
    tint: 0,
    raw: encoded.raw,
    encoded,
    noiseMask: rounded,
  };
}

/**
 * The KSampler on a latent with a noise mask: the image VAEEncode took, cropped as it cropped it,
 * repainted by the seed where the mask lets it (pixels.ts inpaint), kept elsewhere.
 */
export async function samplerInpaint(latent: LatentValue, seed: number): Promise<LatentValue> {
  const width = latent.width * 8;
  const height = latent.height * 8;
  let image = latent.encoded ? cropToLatent(await materialize(latent.encoded)) : undefined;
  if (!image || image.width !== width || image.height !== height) {
    const lazy: Paintable = { ...latent, width, height };
    image = await materialize(lazy);
  }
  const painted: LatentValue = {
    kind: 'latent',
    width: latent.width,
    height: latent.height,
    tint: 0,
    raw: inpaint(image, latent.noiseMask ?? solidMask(1, 1, 1), seed),
  };
  // As ComfyUI's KSampler output, the latent keeps its noise mask.
  if (latent.noiseMask) painted.noiseMask = latent.noiseMask;
  return painted;
}
