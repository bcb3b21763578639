/**
 * The stand-in's pixels where a graph needs them (masks, composites, inpainting): RGB images and
 * float masks computed as ComfyUI's nodes compute them (comfy_extras/nodes_mask.py: SolidMask,
 * FeatherMask with its quirks, MaskComposite, the bilinear resize and blend of composite()), so
 * that what a mask keeps is kept to the byte. Images that need no pixels stay lazy (render.ts).
 */
import sharp from 'sharp';

/** 8-bit RGB pixels. */
export interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

/** A MASK: one float per pixel, 0..1 (ComfyUI's float32 tensor). */
export interface MaskData {
  width: number;
  height: number;
  data: Float32Array;
}

/** What render.ts's image and latent values carry: a source file, a seed's tint, or pixels. */
export interface Paintable {
  width: number;
  height: number;
  source?: Buffer;
  tint: number;
  raw?: Raw;
}

/** The pixels of an image value at its size: its pixels or source resized, tinted by its seed. */
export async function materialize(value: Paintable): Promise<Raw> {
  const { width, height } = value;
  const hue = value.tint % 360;
  if (value.raw && value.raw.width === width && value.raw.height === height && hue === 0) {
    return value.raw;
  }
  let pipe = value.raw
    ? sharp(value.raw.data, {
        raw: { width: value.raw.width, height: value.raw.height, channels: 3 },
      })
    : value.source
      ? sharp(value.source, { limitInputPixels: false })
      : sharp({ create: { width, height, channels: 3, background: '#8a6a4a' } });
  const meta = value.raw ?? (value.source ? await sharp(value.source).metadata() : undefined);
  if (meta && (meta.width !== width || meta.height !== height)) {
    pipe = pipe.resize(width, height, { fit: 'fill' });
  }
  if (hue !== 0) pipe = pipe.modulate({ hue });
  const data = await pipe.removeAlpha().toColourspace('srgb').raw().toBuffer();
  return { data, width, height };
}

export function solidMask(value: number, width: number, height: number): MaskData {
  return { width, height, data: new Float32Array(width * height).fill(Math.fround(value)) };
}

/**
 * FeatherMask as nodes_mask.py computes it, quirks included: the right and bottom ramps index
 * from -0, so the first column (row) is scaled by 1/right (1/bottom) too and the last gets 2/right.
 */
export function featherMask(
  mask: MaskData,
  sides: { left: number; top: number; right: number; bottom: number },
): MaskData {
  const { width, height } = mask;
  const data = Float32Array.from(mask.data);
  const column = (x: number, rate: number) => {
    for (let y = 0; y < height; y++)
      data[y * width + x] = Math.fround((data[y * width + x] ?? 0) * rate);
  };
  const row = (y: number, rate: number) => {
    for (let x = 0; x < width; x++)
      data[y * width + x] = Math.fround((data[y * width + x] ?? 0) * rate);
  };
  const wrap = (index: number, size: number) => (index === 0 ? 0 : size - index);
  const left = Math.min(sides.left, width);
  const right = Math.min(sides.right, width);
  const top = Math.min(sides.top, height);
  const bottom = Math.min(sides.bottom, height);
  for (let x = 0; x < left; x++) column(x, Math.fround((x + 1) / left));
  for (let x = 0; x < right; x++) column(wrap(x, width), Math.fround((x + 1) / right));
  for (let y = 0; y < top; y++) row(y, Math.fround((y + 1) / top));
  for (let y = 0; y < bottom; y++) row(wrap(y, height), Math.fround((y + 1) / bottom));
  return { width, height, data };
}

/** MaskComposite: `source` combined into `destination` at x, y, clamped to 0..1. */
export function maskComposite(
  destination: MaskData,
  source: MaskData,
  x: number,
  y: number,
  operation: string,
): MaskData {
  const data = Float32Array.from(destination.data);
  const right = Math.min(x + source.width, destination.width);
  const bottom = Math.min(y + source.height, destination.height);
  const bit = (v: number) => Math.round(v) !== 0;
  for (let row = y; row < bottom; row++) {
    for (let col = x; col < right; col++) {
      const at = row * destination.width + col;
      const d = data[at] ?? 0;
      const s = source.data[(row - y) * source.width + (col - x)] ?? 0;
      const value =
        operation === 'multiply'
          ? d * s
          : operation === 'add'
            ? d + s
            : operation === 'subtract'
              ? d - s
              : operation === 'and'
                ? Number(bit(d) && bit(s))
                : operation === 'or'
                  ? Number(bit(d) || bit(s))
                  : Number(bit(d) !== bit(s));
      data[at] = Math.fround(Math.min(1, Math.max(0, value)));
    }
  }
  return { width: destination.width, height: destination.height, data };
}

/** torch's bilinear interpolate (align_corners=False), as composite() and KSampler resize masks. */
export function resizeMask(mask: MaskData, width: number, height: number): MaskData {
  if (mask.width === width && mask.height === height) return mask;
  const data = new Float32Array(width * height);
  const axis = (out: number, size: number, to: number) => {
    const at = Math.max(0, (out + 0.5) * (size / to) - 0.5);
    const low = Math.min(Math.floor(at), size - 1);
    return { low, high: Math.min(low + 1, size - 1), t: at - low };
  };
  for (let y = 0; y < height; y++) {
    const v = axis(y, mask.height, height);
    for (let x = 0; x < width; x++) {
      const h = axis(x, mask.width, width);
      const at = (row: number, col: number) => mask.data[row * mask.width + col] ?? 0;
      const top = at(v.low, h.low) * (1 - h.t) + at(v.low, h.high) * h.t;
      const bottom = at(v.high, h.low) * (1 - h.t) + at(v.high, h.high) * h.t;
      data[y * width + x] = Math.fround(top * (1 - v.t) + bottom * v.t);
    }
  }
  return { width, height, data };
}

/**
 * composite() of nodes_mask.py for images: `source` over `destination` at x, y through `mask`
 * (resized to the source), in float as ComfyUI holds images, saved back to 8 bits as SaveImage
 * does (clip, truncate). Where the mask is 0 the destination's bytes stay as they were.
 */
export function compositeImages(
  destination: Raw,
  source: Raw,
  x: number,
  y: number,
  mask: MaskData | undefined,
): Raw {
  const data = Buffer.from(destination.data);
  const m = mask && resizeMask(mask, source.width, source.height);
  const right = Math.min(x + source.width, destination.width);
  const bottom = Math.min(y + source.height, destination.height);
  const unit = (v: number) => Math.fround(v / 255);
  for (let row = y; row < bottom; row++) {
    for (let col = x; col < right; col++) {
      const weight = m ? (m.data[(row - y) * m.width + (col - x)] ?? 0) : 1;
      for (let c = 0; c < 3; c++) {
        const at = (row * destination.width + col) * 3 + c;
        const s = unit(source.data[((row - y) * source.width + (col - x)) * 3 + c] ?? 0);
        const d = unit(data[at] ?? 0);
        const blend = Math.fround(
          Math.fround(weight * s) + Math.fround(Math.fround(1 - weight) * d),
        );
        data[at] = Math.min(255, Math.max(0, Math.trunc(Math.fround(blend * 255))));
      }
    }
  }
  return { data, width: destination.width, height: destination.height };
}

/** The centred crop to multiples of 8 that VAEEncode takes (comfy/sd.py vae_encode_crop_pixels). */
export function cropToLatent(image: Raw): Raw {
  const width = Math.floor(image.width / 8) * 8;
  const height = Math.floor(image.height / 8) * 8;
  if (width === image.width && height === image.height) return image;
  const left = Math.floor((image.width % 8) / 2);
  const top = Math.floor((image.height % 8) / 2);
  const data = Buffer.alloc(width * height * 3);
  for (let row = 0; row < height; row++) {
    const from = ((row + top) * image.width + left) * 3;
    image.data.copy(data, row * width * 3, from, from + width * 3);
  }
  return { data, width, height };
}

/**
 * What the stand-in's KSampler paints where a noise mask lets it: the image shifted around by
 * amounts the seed gives (so each seed paints a different interior of the same material), blended
 * over the original by the mask (1 repaints, 0 keeps).
 */
export function inpaint(image: Raw, mask: MaskData, seed: number): Raw {
  const { width, height } = image;
  const m = resizeMask(mask, width, height);
  const dx = (seed * 389 + 97) % width;
  const dy = (seed * 211 + 53) % height;
  const data = Buffer.from(image.data);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const weight = m.data[y * width + x] ?? 0;
      if (weight === 0) continue;
      const from = (((y + dy) % height) * width + ((x + dx) % width)) * 3;
      for (let c = 0; c < 3; c++) {
        const at = (y * width + x) * 3 + c;
        const kept = image.data[at] ?? 0;
        data[at] = Math.round(kept * (1 - weight) + (image.data[from + c] ?? 0) * weight);
      }
    }
  }
  return { data, width, height };
}

/** Decoded pixels a few levels off the encoded ones (up to 2), as a real VAE's round trip is. */
export function vaeRoundTrip(image: Raw): Raw {
  return { ...image, data: Buffer.from(image.data.map((v) => Math.min(255, (v & 0xfc) + 2))) };
}

/**
 * What the stand-in's CircularVAEDecode does with tiling on: an image that tiles along `x` and/or
 * `y`, by blending it with itself rolled half-way round, the rolled copy showing at the edges
 * (where it joins its own other side) and the image itself in the middle (where the roll's own
 * seam lies), the blend rescaled about the mean to keep the contrast. One axis after the other,
 * so each keeps the other's tiling.
 */
export function tileable(image: Raw, x: boolean, y: boolean): Raw {
  const { width, height } = image;
  let data = image.data;
  const pass = (along: 'x' | 'y') => {
    const size = along === 'x' ? width : height;
    const half = Math.floor(size / 2);
    const out = Buffer.alloc(data.length);
    const means = [0, 1, 2].map((c) => {
      let sum = 0;
      for (let i = c; i < data.length; i += 3) sum += data[i] ?? 0;
      return sum / (width * height);
    });
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const at = along === 'x' ? col : row;
        const weight = Math.min(at, size - 1 - at) / half;
        const from =
          along === 'x'
            ? row * width + ((col + half) % width)
            : ((row + half) % height) * width + col;
        const to = row * width + col;
        // Blended around the mean and rescaled, so the mix keeps the texture's contrast.
        const norm = Math.hypot(weight, 1 - weight);
        for (let c = 0; c < 3; c++) {
          const mean = means[c] ?? 0;
          const own = (data[to * 3 + c] ?? 0) - mean;
          const rolled = (data[from * 3 + c] ?? 0) - mean;
          const value = Math.round(mean + (own * weight + rolled * (1 - weight)) / norm);
          out[to * 3 + c] = Math.min(255, Math.max(0, value));
        }
      }
    }
    data = out;
  };
  if (x) pass('x');
  if (y) pass('y');
  return { data, width, height };
}
