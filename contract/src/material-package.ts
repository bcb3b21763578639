// A material package of an LD or HD image with its maps (issue 26, part 3): one ZIP with the
// maps under Poly Haven's names, packed maps, a glTF binary of a tile of the ordered size and a
// MaterialX document. Downloads from materialPackageUrl(); beyond SPEC §7.
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';
import { DEFAULT_LOCALE, LOCALES, type Locale, type Translation } from './i18n.js';
import { routeUrl, API_ROUTES } from './routes.js';

/**
 * What the ZIP holds: `standard` everything; `unreal` the maps Unreal Engine's materials take
 * (DirectX normals, ORM packing); `unity-hdrp` Unity HDRP's Lit (OpenGL normals, its mask map:
 * R metallic, G occlusion, B detail mask, A smoothness). The presets differ only in packing.
 */
export const MATERIAL_PRESETS = ['standard', 'unreal', 'unity-hdrp'] as const;
export type MaterialPreset = (typeof MATERIAL_PRESETS)[number];

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
  /** The language of the package's README.txt: the one the interface shows. */
  lang: z.enum(LOCALES).default(DEFAULT_LOCALE),
});
export type MaterialPackageQuery = z.infer<typeof materialPackageQuerySchema>;

/** Where the browser downloads an image's material package. */
export function materialPackageUrl(query: {
  kind: 'ld' | 'hd';
  image: string;
  preset: MaterialPreset;
  size?: string;
  lang?: Locale;
}): string {
  const search = new URLSearchParams({
    kind: query.kind,
    image: query.image,
    preset: query.preset,
  });
  if (query.size !== undefined) search.set('size', query.size);
  if (query.lang !== undefined) search.set('lang', query.lang);
  return `${routeUrl(API_ROUTES.materialPackage, {})}?${search.toString()}`;
}

/** The longest side of the textures embedded in the `.glb` (the ZIP's maps are full size). */
export const MATERIAL_GLB_MAX_SIDE = 2048;

/** The package's texts in the image's details (the README's are MATERIAL_README_TEXTS). */
export const MATERIAL_TEXTS = {
  download: 'Descargar material',
  /** Names the package's controls. */
  package: 'Paquete de material',
  preset: 'Preajuste de exportación',
  presets: {
    standard: 'Estándar (glTF, MaterialX, todos los mapas)',
    unreal: 'Unreal Engine (ORM)',
    'unity-hdrp': 'Unity HDRP (mask map)',
  } satisfies Record<MaterialPreset, string>,
  tileSize: 'Tamaño de la baldosa',
  tileSizeOption: (label: string) => `${label} cm`,
  /** Under the controls: what the ZIP holds, and the size its textures cover. */
  note: (kind: 'ld' | 'hd'): string =>
    kind === 'hd'
      ? 'Un ZIP con los mapas, con los nombres que les da Poly Haven, a la medida de la baldosa de la imagen HD.'
      : 'Un ZIP con los mapas, con los nombres que les da Poly Haven, a la medida de la baldosa que elijas aquí.',
  noTileSize:
    'Esta imagen no tiene ningún formato de salida, así que no le corresponde ningún tamaño de baldosa: no hay paquete de material.',
} as const;

/** MATERIAL_TEXTS in English. */
export const MATERIAL_TEXTS_EN: Translation<typeof MATERIAL_TEXTS> = {
  download: 'Download material',
  package: 'Material package',
  preset: 'Export preset',
  presets: {
    standard: 'Standard (glTF, MaterialX, every map)',
    unreal: 'Unreal Engine (ORM)',
    'unity-hdrp': 'Unity HDRP (mask map)',
  },
  tileSize: 'Tile size',
  tileSizeOption: (label: string) => `${label} cm`,
  note: (kind: 'ld' | 'hd'): string =>
    kind === 'hd'
      ? 'A ZIP of the maps, named as Poly Haven names them, sized to the HD image’s tile.'
      : 'A ZIP of the maps, named as Poly Haven names them, sized to the tile chosen here.',
  noTileSize: 'This picture is of no output format, so no tile size fits it: no material package.',
};
