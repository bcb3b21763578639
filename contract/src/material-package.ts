// A material package of an LD or HD image with its maps (issue 26, part 3): one ZIP with the
// maps under Poly Haven's names, packed maps, a glTF binary of a tile of the ordered size and a
// MaterialX document. Downloads from materialPackageUrl(); beyond SPEC §7.
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';
import { routeUrl, API_ROUTES } from './routes.js';

/**
 * What the ZIP holds: `standard` everything; `unreal` the maps Unreal Engine's materials take
 * (DirectX normals, ORM packing); `unity-hdrp` Unity HDRP's Lit (OpenGL normals, its mask map:
 * R metallic, G occlusion, B detail mask, A smoothness). The presets differ only in packing.
 */
export const MATERIAL_PRESETS = ['standard', 'unreal', 'unity-hdrp'] as const;
export type MaterialPreset = (typeof MATERIAL_PRESETS)[number];
export const MATERIAL_PRESET_LABELS: Readonly<Record<MaterialPreset, string>> = {
  standard: 'Standard (glTF, MaterialX, every map)',
  unreal: 'Unreal Engine (ORM)',
  'unity-hdrp': 'Unity HDRP (mask map)',
};

/** The files of a package, as Poly Haven names them (`<name>_<suffix>.<ext>`). */
export const MATERIAL_PACKAGE_FILES = {
  baseColour: 'diff',
  normalOpenGl: 'nor_gl',
  normalDirectX: 'nor_dx',
  roughness: 'rough',
  ambientOcclusion: 'ao',
  height: 'disp',
  /** R = ambient occlusion, G = roughness, B = metal (glTF's and Unreal's ORM). */
  orm: 'arm',
  /** Unity HDRP: R metallic, G occlusion, B detail mask, A smoothness. */
  unityMask: 'mask',
} as const;
export type MaterialPackageFile = keyof typeof MATERIAL_PACKAGE_FILES;

/** Which files each preset holds (beside the base colour, always there). */
export const MATERIAL_PRESET_FILES: Readonly<
  Record<MaterialPreset, readonly MaterialPackageFile[]>
> = {
  standard: [
    'baseColour',
    'normalOpenGl',
    'normalDirectX',
    'roughness',
    'ambientOcclusion',
    'height',
    'orm',
  ],
  unreal: ['baseColour', 'normalDirectX', 'orm', 'height'],
  'unity-hdrp': ['baseColour', 'normalOpenGl', 'unityMask', 'height'],
};

/** Whether a preset's ZIP carries the glTF binary and the MaterialX document. */
export function presetHasScenes(preset: MaterialPreset): boolean {
  return preset === 'standard';
}

/** `brick-wall-1a2b3c_hd` + `_arm.png`: a package file's name. */
export function materialPackageFileName(name: string, file: MaterialPackageFile): string {
  return `${name}_${MATERIAL_PACKAGE_FILES[file]}.png`;
}

/** GET API_ROUTES.materialPackage's query: which image and which preset. */
export const materialPackageQuerySchema = z.object({
  kind: z.enum(['ld', 'hd']),
  image: fileNameSchema,
  preset: z.enum(MATERIAL_PRESETS).default('standard'),
  /**
   * The tile's physical size as an HD size label ("60x120"): an HD image's own is used and this
   * is ignored; an LD image's tile takes this, or the first HD size its format offers.
   */
  size: z.string().optional(),
});
export type MaterialPackageQuery = z.infer<typeof materialPackageQuerySchema>;

/** Where the browser downloads an image's material package. */
export function materialPackageUrl(query: {
  kind: 'ld' | 'hd';
  image: string;
  preset: MaterialPreset;
  size?: string;
}): string {
  const search = new URLSearchParams({
    kind: query.kind,
    image: query.image,
    preset: query.preset,
  });
  if (query.size !== undefined) search.set('size', query.size);
  return `${routeUrl(API_ROUTES.materialPackage, {})}?${search.toString()}`;
}

/** The longest side of the textures embedded in the `.glb` (the ZIP's maps are full size). */
export const MATERIAL_GLB_MAX_SIDE = 2048;

/** The package's texts: the web's controls, and what its README says of each file. */
export const MATERIAL_TEXTS = {
  download: 'Download material',
  preset: 'Export preset',
  tileSize: 'Tile size',
  /** Under the controls: what the ZIP holds, and the size its textures cover. */
  note: (kind: 'ld' | 'hd') =>
    kind === 'hd'
      ? 'A ZIP of the maps, named as Poly Haven names them, sized to the HD image’s tile.'
      : 'A ZIP of the maps, named as Poly Haven names them, sized to the tile chosen here.',
  noTileSize: 'This picture is of no output format, so no tile size fits it: no material package.',
  files: {
    baseColour: 'base colour (sRGB): the image itself',
    normalOpenGl: 'normal map, OpenGL convention (green up: glTF, Blender, Unity, three.js)',
    normalDirectX: 'normal map, DirectX convention (green down: Unreal Engine, 3ds Max)',
    roughness: 'roughness, linear grey (white is rough)',
    ambientOcclusion: 'ambient occlusion, linear grey (white is unoccluded)',
    height: 'height, 16-bit grey (white is high)',
    orm: 'ORM: R ambient occlusion, G roughness, B metalness (0), as glTF and Unreal Engine pack them',
    unityMask:
      'Unity HDRP mask map: R metallic (0), G ambient occlusion, B detail mask (1), A smoothness (1 − roughness)',
  } satisfies Record<MaterialPackageFile, string>,
  glb: 'glTF binary: one tile of the ordered size as a quad in metres with the material (textures at most 2048 px, KHR_texture_transform repeats them once per tile)',
  mtlx: 'MaterialX document: a standard_surface reading the PNGs beside it, UVs taken in metres',
} as const;
