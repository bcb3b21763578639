// The packed maps of a material package (issue 26, part 3): channels of the stored grey maps
// joined into one PNG, as glTF/Unreal (ORM) and Unity HDRP (mask map) read them. libvips reads
// each source sequentially and writes the PNG as it goes, so a 200 MP map never sits in memory.
import sharp from 'sharp';

/** What a packed map is made from: local paths of the stored 8-bit grey maps. */
export interface PackSources {
  ambientOcclusion: string;
  roughness: string;
}

/** A place for intermediate files (a scratch folder). */
export interface PackFolder {
  newFile(extension: string): { readonly path: string };
}

/** HD maps pass sharp's default pixel limit; these are the server's own files, never uploads. */
const READ = { limitInputPixels: false, sequentialRead: true } as const;
/** Level 3: most of level 6's size at a fraction of its time (as the maps' own PNGs). */
const PNG = { compressionLevel: 3 } as const;

/** Width and height of an image, and that it has one band (the maps' greys). */
async function greySize(path: string): Promise<{ width: number; height: number }> {
  const { width, height, channels } = await sharp(path, READ).metadata();
  if (!width || !height) throw new Error('A map has no size');
  if (channels !== 1) throw new Error(`A map has ${channels} bands, not one grey`);
  return { width, height };
}

/** A grey PNG of one value everywhere (deflates to almost nothing). */
async function constantGrey(
  folder: PackFolder,
  size: { width: number; height: number },
  value: number,
): Promise<string> {
  const { path } = folder.newFile('png');
  const background = { r: value, g: value, b: value };
  await sharp({ create: { ...size, channels: 3, background } })
    .extractChannel(0)
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toFile(path);
  return path;
}

/** ORM (glTF's occlusion + metallicRoughness, Unreal's ORM): R = AO, G = roughness, B = metal 0. */
export async function writeOrm(sources: PackSources, out: string, folder: PackFolder) {
  const size = await greySize(sources.ambientOcclusion);
  const metal = await constantGrey(folder, size, 0);
  await sharp(sources.ambientOcclusion, READ)
    .joinChannel([sources.roughness, metal], READ)
    .toColourspace('srgb')
    .png(PNG)
    .toFile(out);
}

/**
 * Unity HDRP's mask map: R = metallic 0, G = AO, B = detail mask 1 (detail everywhere),
 * A = smoothness = 1 − roughness.
 */
export async function writeUnityMask(sources: PackSources, out: string, folder: PackFolder) {
  const size = await greySize(sources.ambientOcclusion);
  const smoothness = folder.newFile('png').path;
  // libvips joins bands after every other step of a pipeline: the inversion is a pass of its own.
  const [metal, detail] = await Promise.all([
    constantGrey(folder, size, 0),
    constantGrey(folder, size, 255),
    sharp(sources.roughness, READ)
      .negate()
      .toColourspace('b-w')
      .png({ compressionLevel: 1 })
      .toFile(smoothness),
  ]);
  await sharp(metal, READ)
    .joinChannel([sources.ambientOcclusion, detail, smoothness], READ)
    .toColourspace('srgb')
    .png(PNG)
    .toFile(out);
}

/**
 * The image as a PNG: its own path when it is one already (its bytes go into the package as they
 * are), else a PNG encoded from it in the folder.
 */
export async function pngOf(image: string, folder: PackFolder): Promise<string> {
  const { format } = await sharp(image, READ).metadata();
  if (format === 'png') return image;
  const { path } = folder.newFile('png');
  await sharp(image, READ).png(PNG).toFile(path);
  return path;
}

/** A texture for the glTF binary: at most `maxSide` px a side, PNG or JPEG. */
export async function glbTexture(
  path: string,
  maxSide: number,
  type: 'image/png' | 'image/jpeg',
): Promise<Buffer> {
  const resized = sharp(path, READ).resize(maxSide, maxSide, {
    fit: 'inside',
    withoutEnlargement: true,
  });
  return type === 'image/png'
    ? resized.toColourspace('srgb').png({ compressionLevel: 6 }).toBuffer()
    : resized.toColourspace('srgb').jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer();
}
