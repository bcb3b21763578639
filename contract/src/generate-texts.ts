// The Generate screen's own texts (SPEC §2 Generate; issue 30, part 5): the spec's labels are
// verbatim in the default language and the same in English; ours are Spanish with English twins.
// The spec's generation messages and the Faces hint live in TEXTS.
import type { Translation } from './i18n.js';

export const GENERATE_TEXTS = {
  /** The screen's heading and its button (SPEC §2: "A Generate button"). */
  generate: 'Generate',
  noReference: 'Elige antes una imagen de referencia.',
  /** Names the preview and the results strip. */
  generatedImages: 'Imágenes generadas',

  // The upload area
  uploadReference: 'Subir imagen de referencia',
  changeReference: (name: string) => `Cambiar la imagen de referencia (${name})`,
  referenceImage: 'Imagen de referencia',
  dropHere: 'Haz clic o suelta aquí una imagen',
  dropToReplace: 'haz clic o suelta otra para sustituirla',

  // Generation Parameters (SPEC §2's labels)
  parameters: 'Generation Parameters',
  labels: {
    positivePrompt: 'Positive Prompt',
    negativePrompt: 'Negative Prompt',
    outputFormat: 'Output Format',
    imaginationWeight: 'Imagination Weight',
    similarity: 'Similarity',
    promptAdherence: 'Prompt Adherence',
    styleWeight: 'Style Weight',
    tiling: 'Seamless',
    mask: 'Mask',
    batchSize: 'Batch Size',
    useFixedSeed: 'Use Fixed Seed',
    /** Beyond the spec (issue 25): the faces of one design in a series. */
    faces: 'Caras',
  },
  fixedSeed: (seed: number | string) => `Semilla ${seed} para todas las imágenes`,
  randomSeed: 'Una semilla aleatoria para cada imagen',

  // The Tags section (SPEC §2)
  tags: 'Tags',
  loadingTags: 'Cargando etiquetas…',
  noTags: 'Aún no hay etiquetas: créalas en el Dashboard.',
  assignTags: 'Asignar a las imágenes generadas',

  // The preview and the results strip
  preview: 'Vista previa',
  generatingImage: (percent: number) => `Generando imagen… ${percent}%`,
  placeholder: 'Aquí aparecerá la imagen generada.',
  openDetails: (filename: string) => `Abrir los detalles de ${filename}`,
  results: 'Resultados',
  pendingImage: 'Imagen pendiente',
  pendingFace: (face: number, faces: number) => `Cara ${face} de ${faces} pendiente`,
  load: (filename: string) => `Cargar ${filename}`,
} as const;

export const GENERATE_TEXTS_EN: Translation<typeof GENERATE_TEXTS> = {
  generate: 'Generate',
  noReference: 'Choose a reference image first.',
  generatedImages: 'Generated images',

  uploadReference: 'Upload reference image',
  changeReference: (name: string) => `Change reference image (${name})`,
  referenceImage: 'Reference image',
  dropHere: 'Click or drop an image here',
  dropToReplace: 'click or drop to replace',

  parameters: 'Generation Parameters',
  labels: {
    positivePrompt: 'Positive Prompt',
    negativePrompt: 'Negative Prompt',
    outputFormat: 'Output Format',
    imaginationWeight: 'Imagination Weight',
    similarity: 'Similarity',
    promptAdherence: 'Prompt Adherence',
    styleWeight: 'Style Weight',
    tiling: 'Seamless',
    mask: 'Mask',
    batchSize: 'Batch Size',
    useFixedSeed: 'Use Fixed Seed',
    faces: 'Faces',
  },
  fixedSeed: (seed: number | string) => `Seed ${seed} for every image`,
  randomSeed: 'A random seed for each image',

  tags: 'Tags',
  loadingTags: 'Loading tags…',
  noTags: 'No tags yet: create them in the Dashboard.',
  assignTags: 'Assign to the generated images',

  preview: 'Preview',
  generatingImage: (percent: number) => `Generating image… ${percent}%`,
  placeholder: 'Your generated image will appear here.',
  openDetails: (filename: string) => `Open details of ${filename}`,
  results: 'Results',
  pendingImage: 'Pending image',
  pendingFace: (face: number, faces: number) => `Pending face ${face} of ${faces}`,
  load: (filename: string) => `Load ${filename}`,
};
