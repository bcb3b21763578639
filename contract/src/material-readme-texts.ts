// README.txt of a material package (issue 26, part 3): its texts in Spanish with their English
// twin (issue 30, part 5). The server writes the default language's (nothing on the wire tells
// it the reader's), so a package reads as the rest of the interface does by default.
import type { Translation } from './i18n.js';
import { MATERIAL_GLB_MAX_SIDE, type MaterialPackageFile } from './material-package.js';
import { plainNumber } from './number-format.js';

/** The facts of the tile, as the README states them. */
export interface ReadmeTile {
  widthCm: number;
  heightCm: number;
  /** The HD size label ("60x120"). */
  sizeLabel: string;
}

const metresEs = (cm: number) => plainNumber(cm / 100, 4, 'es');
const metresEn = (cm: number) => plainNumber(cm / 100, 4, 'en');

/**
 * Each `…Label` starts a line and its value follows in one column; a value of several lines
 * (separated by "\n") goes on in that column.
 */
export const MATERIAL_README_TEXTS = {
  title: (name: string) => `${name}: un material hecho con Tessera`,
  madeFromLabel: 'Hecho de:',
  madeFrom: (image: string, kind: string) => `${image} (imagen ${kind}) y sus mapas de material`,
  presetLabel: 'Preajuste:',
  tileLabel: 'Baldosa:',
  tile: ({ widthCm, heightCm, sizeLabel }: ReadmeTile) =>
    [
      `${plainNumber(widthCm, 2, 'es')} x ${plainNumber(heightCm, 2, 'es')} cm (${metresEs(widthCm)} x ${metresEs(heightCm)} m, ancho x alto), tamaño ${sizeLabel}.`,
      'Cada textura cubre una baldosa de este tamaño: en una herramienta 3D, repítela una vez',
      `cada ${metresEs(widthCm)} m a lo ancho y ${metresEs(heightCm)} m hacia arriba.`,
    ].join('\n'),
  seamlessLabel: 'Sin costuras:',
  seamlessYes:
    'sí; los mapas continúan de un borde al opuesto, así que las baldosas se unen sin costuras.',
  seamlessNo:
    'no; la imagen no se hizo sin costuras, así que las baldosas repetidas dejan ver sus bordes.',
  conventions: (suffixes: string, displacementM: number) =>
    [
      'Los nombres siguen la convención de Poly Haven, <nombre>_<mapa>.png, con sus nombres cortos',
      `de mapa (${suffixes}),`,
      'que reconocen el Node Wrangler de Blender y casi todos los importadores de texturas.',
      'Los mapas de color están en sRGB; los demás son datos lineales. La metalicidad es 0 en todos.',
      `Altura: el gris medio es la superficie; el documento MaterialX la desplaza ${plainNumber(displacementM, 6, 'es')} m`,
      'en todo el rango (el blanco sube y el negro baja, cada uno la mitad de eso).',
    ].join('\n'),
  filesHeading: 'Archivos',
  files: {
    baseColour: 'color base (sRGB): la propia imagen',
    normalOpenGl:
      'mapa de normales, convención OpenGL (verde hacia arriba: glTF, Blender, Unity, three.js)',
    normalDirectX:
      'mapa de normales, convención DirectX (verde hacia abajo: Unreal Engine, 3ds Max)',
    roughness: 'rugosidad, gris lineal (el blanco es rugoso)',
    ambientOcclusion: 'oclusión ambiental, gris lineal (el blanco no tiene oclusión)',
    height: 'altura, gris de 16 bits (el blanco es alto)',
    orm: 'ORM: R oclusión ambiental, G rugosidad, B metalicidad (0), como lo empaquetan glTF y Unreal Engine',
    unityMask:
      'mask map de Unity HDRP: R metálico (0), G oclusión ambiental, B máscara de detalle (1), A suavidad (1 − rugosidad)',
  } satisfies Record<MaterialPackageFile, string>,
  glb: `glTF binario: una baldosa del tamaño pedido, un cuadrilátero en metros con el material (texturas de ${MATERIAL_GLB_MAX_SIDE} px como mucho; KHR_texture_transform las repite una vez por baldosa)`,
  mtlx: 'documento MaterialX: un standard_surface que lee los PNG que tiene al lado, con las UV en metros',
  readme: 'este archivo',
} as const;

/** MATERIAL_README_TEXTS in English. */
export const MATERIAL_README_TEXTS_EN: Translation<typeof MATERIAL_README_TEXTS> = {
  title: (name: string) => `${name}: a material made by Tessera`,
  madeFromLabel: 'Made from:',
  madeFrom: (image: string, kind: string) => `${image} (${kind} image) and its material maps`,
  presetLabel: 'Preset:',
  tileLabel: 'Tile:',
  tile: ({ widthCm, heightCm, sizeLabel }: ReadmeTile) =>
    [
      `${plainNumber(widthCm, 2, 'en')} x ${plainNumber(heightCm, 2, 'en')} cm (${metresEn(widthCm)} x ${metresEn(heightCm)} m, width x height), size ${sizeLabel}.`,
      'Each texture covers one tile of this size: in a 3D tool, repeat it once per',
      `${metresEn(widthCm)} m across and ${metresEn(heightCm)} m up.`,
    ].join('\n'),
  seamlessLabel: 'Seamless:',
  seamlessYes: 'yes; the maps wrap around the edges, so tiles join without seams.',
  seamlessNo: 'no; the image was not made seamless, so repeated tiles show their edges.',
  conventions: (suffixes: string, displacementM: number) =>
    [
      "Names follow Poly Haven's convention, <name>_<map>.png, with its short map names",
      `(${suffixes}), which Blender's Node Wrangler and most texture importers recognise.`,
      'Colour maps are sRGB; every other map is linear data. Metalness is 0 throughout.',
      `Height: mid-grey is the surface; the MaterialX document displaces it by ${plainNumber(displacementM, 6, 'en')} m`,
      'over the full range (white rises, black sinks, each by half of that).',
    ].join('\n'),
  filesHeading: 'Files',
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
  },
  glb: `glTF binary: one tile of the ordered size as a quad in metres with the material (textures at most ${MATERIAL_GLB_MAX_SIDE} px, KHR_texture_transform repeats them once per tile)`,
  mtlx: 'MaterialX document: a standard_surface reading the PNGs beside it, UVs taken in metres',
  readme: 'this file',
};
