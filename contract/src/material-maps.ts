// PBR material maps of an LD or HD image (issue 17, part 5): the maps and the shapes of the
// routes that order them and tell how far they are (API_ROUTES.materialMaps*), as both sides use
// them. Beyond SPEC §7: plain HTTP, polled like the spec's HD status, so the spec's MQTT topics
// carry nothing new.
import { z } from 'zod';
import { fileNameSchema } from './file-name.js';
import type { Translation } from './i18n.js';
import { plainNumber } from './number-format.js';

/** The maps of a material, in the order they are shown. */
export const MATERIAL_MAPS = [
  'height',
  'normal-opengl',
  'normal-directx',
  'roughness',
  'ambient-occlusion',
] as const;
export type MaterialMap = (typeof MATERIAL_MAPS)[number];

/**
 * How the height is read from the picture (issue 26, part 4): from luminance, light is high;
 * `invert` makes dark high (light mortar between darker bricks lies low); `strength` scales the
 * relief the normals, the occlusion and a displacement show. Kept with the maps they made.
 */
export const MATERIAL_HEIGHT_STRENGTH_RANGE = { min: 0.25, max: 4, step: 0.25 } as const;
export const heightSettingsSchema = z.object({
  invert: z.boolean(),
  strength: z
    .number()
    .min(MATERIAL_HEIGHT_STRENGTH_RANGE.min)
    .max(MATERIAL_HEIGHT_STRENGTH_RANGE.max)
    .refine((value) => Number.isInteger(value / MATERIAL_HEIGHT_STRENGTH_RANGE.step), {
      message: `in steps of ${MATERIAL_HEIGHT_STRENGTH_RANGE.step}`,
    }),
});
export type HeightSettings = z.infer<typeof heightSettingsSchema>;
export const DEFAULT_HEIGHT_SETTINGS: HeightSettings = { invert: false, strength: 1 };

/** The maps section of an image's details (issue 17, part 5; its height settings: issue 26). */
export const MATERIAL_MAPS_TEXTS = {
  heading: 'Mapas de material',
  generate: 'Generar mapas',
  generating: (percent: number) => `Generando mapas… ${percent} %`,
  remake: 'Rehacer mapas',
  progress: 'Progreso de los mapas de material',
  files: 'Archivos de los mapas',
  maps: {
    height: 'Altura',
    'normal-opengl': 'Normal (OpenGL)',
    'normal-directx': 'Normal (DirectX)',
    roughness: 'Rugosidad',
    'ambient-occlusion': 'Oclusión ambiental',
  } satisfies Record<MaterialMap, string>,

  // How the height is read (issue 26, part 4).
  height: 'Altura',
  invertHeight: 'Invertir altura',
  invertHeightHint:
    'Lo oscuro queda alto: para juntas claras entre ladrillos o baldosas más oscuros',
  heightStrength: 'Intensidad del relieve',
  heightStrengthValue: (strength: number) => `×${plainNumber(strength, 2, 'es')}`,
  /** The height map's small copy beside the controls: what inverting turns over. */
  heightMap: 'Mapa de altura (lo claro es alto)',
  /** The controls differ from the settings the maps shown were made with. */
  settingsChanged:
    'Los mapas que ves se hicieron con otros ajustes de altura: rehazlos para aplicar estos.',

  // The material in 3D.
  previewLoading: 'Cargando la vista previa 3D…',
  preview: 'Vista previa 3D del material',
  previewUnavailable: 'Vista previa 3D no disponible: este navegador tiene WebGL desactivado',
  previewHint: 'Arrastra para girar; usa la rueda para acercar',
} as const;

/** MATERIAL_MAPS_TEXTS in English. */
export const MATERIAL_MAPS_TEXTS_EN: Translation<typeof MATERIAL_MAPS_TEXTS> = {
  heading: 'Material maps',
  generate: 'Generate maps',
  generating: (percent: number) => `Generating maps… ${percent}%`,
  remake: 'Remake maps',
  progress: 'Material maps progress',
  files: 'Map files',
  maps: {
    height: 'Height',
    'normal-opengl': 'Normal (OpenGL)',
    'normal-directx': 'Normal (DirectX)',
    roughness: 'Roughness',
    'ambient-occlusion': 'Ambient occlusion',
  },

  height: 'Height',
  invertHeight: 'Invert height',
  invertHeightHint: 'Dark is high: for light mortar between darker bricks or tiles',
  heightStrength: 'Height strength',
  heightStrengthValue: (strength: number) => `×${plainNumber(strength, 2, 'en')}`,
  heightMap: 'Height map (light is high)',
  settingsChanged:
    'The maps shown were made with other height settings: remake them to apply these.',

  previewLoading: 'Loading 3D preview…',
  preview: '3D preview of the material',
  previewUnavailable: '3D preview unavailable: this browser has WebGL turned off',
  previewHint: 'Drag to rotate, scroll to zoom',
};

/** Which image: a gallery ('ld' or 'hd') and its file name. */
export const materialMapsRequestSchema = z.object({
  kind: z.enum(['ld', 'hd']),
  image: fileNameSchema,
});

/** An order of maps: the image, and how its height is read (DEFAULT_HEIGHT_SETTINGS if absent). */
export const materialMapsOrderSchema = materialMapsRequestSchema.extend({
  height: heightSettingsSchema.optional(),
});

export const materialMapsJobSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'in_progress', 'finished', 'error', 'cancelled']),
  percent: z.number().int().min(0).max(100),
  error: z.string().optional(),
});

export const materialMapFileSchema = z.object({
  map: z.enum(MATERIAL_MAPS),
  filename: fileNameSchema,
  bytes: z.number().int().nonnegative(),
  /** The map at most PREVIEW_MAX_SIDE px wide and high, for the 3D preview. */
  preview: fileNameSchema,
});

/** The longest side of the maps' previews: what a browser's 3D preview loads. */
export const MATERIAL_PREVIEW_MAX_SIDE = 1024;

export const materialMapsStatusSchema = z.object({
  /** The image's latest maps job; null when none was ordered. */
  job: materialMapsJobSchema.nullable(),
  /** The maps made last, one per map; empty before the first job finished. */
  maps: z.array(materialMapFileSchema),
  /** The image itself at the previews' size (the material's colour); set with the maps. */
  colourPreview: fileNameSchema.optional(),
  /** Whether the maps wrap around the image's edges (a seamless texture's maps tile). */
  seamless: z.boolean(),
  /** How the maps made last read the height (DEFAULT_HEIGHT_SETTINGS before any). */
  height: heightSettingsSchema,
  /**
   * When the maps shown were made (ISO 8601); set with the maps. Remade maps keep their file
   * names, so the preview URLs carry it: a browser never shows its copy of the maps before.
   */
  madeAt: z.string().optional(),
});

export type MaterialMapsRequest = z.infer<typeof materialMapsRequestSchema>;
export type MaterialMapsOrder = z.infer<typeof materialMapsOrderSchema>;
export type MaterialMapsJob = z.infer<typeof materialMapsJobSchema>;
export type MaterialMapFile = z.infer<typeof materialMapFileSchema>;
export type MaterialMapsStatus = z.infer<typeof materialMapsStatusSchema>;
