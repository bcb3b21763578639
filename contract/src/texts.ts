// Every user-facing text of SPEC §2, §5, §8 and §9, written once. Spec texts are verbatim (some
// are English); the ones the spec leaves open (tag name required/too long, form field errors,
// the series and the laying preview) are ours, in Spanish. English twins: texts-en.ts.
import { UPLOAD_MAX_PIXELS } from './constants.js';

/**
 * Formats megapixels the way the upload message shows them: two decimals, or more where two
 * would round an area just over the limit to the limit's own "17.00" (4251x4000 is 17.004 MP).
 */
export function megapixels(width: number, height: number): string {
  const value = (width * height) / 1_000_000;
  const limit = UPLOAD_MAX_PIXELS / 1_000_000;
  for (let decimals = 2; decimals < 6; decimals += 1) {
    const text = value.toFixed(decimals);
    if (value <= limit || Number(text) > limit) return text;
  }
  return value.toFixed(6);
}

export const TEXTS = {
  // Login (§8)
  loginFailed: 'Login failed',

  // Galleries (§2, §8)
  imageListError: 'Error al obtener la lista de imágenes.',
  noImagesFound: 'No se han encontrado imágenes.',
  refreshing: 'Refreshing...',

  // Generation (§4, §8)
  generationError: 'Error en la generación de imágenes.',
  metadataError: 'Error obtaining metadata.',
  latestImageError: 'Error fetching the latest image. Please try again.',
  generateStatusError: 'Error obtaining generate image status.',
  generatedImageLoadError: 'Error loading the generated image.',
  generatingButton: (percent: number) => `Generating... (${percent}%)`,
  positivePromptRequired: 'El prompt positivo es obligatorio',
  negativePromptRequired: 'El prompt negativo es obligatorio',
  promptTooLong: (max: number) => `El prompt admite como máximo ${max} caracteres`,
  numberOutOfRange: (min: number, max: number) => `Debe ser un número de ${min} a ${max}`,
  outputFormatInvalid: 'Elige uno de los formatos de salida',
  batchSizeInvalid: (min: number, max: number) => `Debe ser un número entero de ${min} a ${max}`,
  /** Beyond the spec (issue 25): the Faces field of a series. */
  facesInvalid: (min: number, max: number) => `Debe ser un número entero de ${min} a ${max}`,
  /** Beyond the spec (issue 25): under the Faces field. */
  facesHint: 'Caras de un mismo diseño que casan entre sí en cualquier orden (con Seamless)',
  /** Beyond the spec (issue 25): the badge of a face of a series, in the galleries and footer. */
  seriesFaceBadge: (face: number, faces: number) => `Cara ${face}/${faces}`,
  /** Beyond the spec (issue 25): selects every face of the series in a gallery. */
  selectSeries: 'Seleccionar la serie',
  /** Beyond the spec (issue 25): the LD details' HD order of every face of the series. */
  generateHdForSeries: (count: number) => `Generar HD de la serie (${count} caras)`,

  // HD (§2, §8, §9)
  hdSizeRequired: 'Debe seleccionar una opción válida.',
  generatingHdButton: (percent: number) => `Generating HD... (${percent}%)`,
  downloadHdImage: 'Download HD Image',
  hdErrorToast: (image: string) => `Error generating HD image for ${image}. Retrying...`,
  hdQueuedToast: (image: string) => `HD image generation for ${image} added to queue.`,
  hdInProgressToast: (percent: number, count: number) =>
    `Generating HD... (${percent}%) (Queued: ${count})`,
  hdFinishedToast: (image: string) => `HD image generation for ${image} finished.`,
  /** Beyond the spec: an HD job cancelled, on the queue page or by deleting its image. */
  hdCancelledToast: (image: string) => `Se ha cancelado la generación de la imagen HD de ${image}.`,
  /** Beyond the spec: an HD order of an image and size already on its way. */
  hdAlreadyOrderedToast: (image: string) =>
    `Ya hay una imagen HD de ${image} en este tamaño en camino.`,
  unknownStatus: 'Unknown status message.',
  /**
   * Beyond the spec (issue 29, part 4): an HD image whose file the retention policy removed, in
   * the HD gallery, dated as the gallery dates images (es-ES).
   */
  hdRemovedByRetention: (date: string) => `Eliminado por la política de retención el ${date}`,
  /** Beyond the spec (issue 29, part 4): how to have it again. */
  hdRemovedByRetentionHint: 'Pide el HD de nuevo desde su imagen LD.',

  // Messaging (§8)
  responseTimedOut: 'Response timed out',

  // Tags (§5)
  tagNameRequired: 'El nombre de la etiqueta es obligatorio',
  tagNameTooLong: (max: number) => `El nombre de la etiqueta admite como máximo ${max} caracteres`,
  tagInvalidCharacters: 'Use only standard characters (no emojis or special symbols)',
  tagDuplicate: (name: string) => `A tag with the name '${name}' already exists`,

  // Laying preview (issue 25, part 5)
  layingPreviewButton: 'Vista de colocación',
  layingPreviewTitle: (image: string) => `Vista de colocación: ${image}`,
  layingFacesNote: (faces: number) =>
    faces > 1
      ? `${faces} caras de la serie, colocadas al azar`
      : 'La misma imagen en todas las baldosas',
  layingTileSize: 'Tamaño de la baldosa (cm)',
  layingPattern: 'Patrón',
  layingPatterns: {
    stack: 'A junta recta',
    'running-half': 'Trabada 1/2',
    'running-third': 'Trabada 1/3',
    diagonal: 'En diagonal',
    herringbone: 'Espiga',
    chevron: 'Espiga húngara',
    basketweave: 'Cestería',
  },
  layingJoint: 'Junta (mm)',
  layingGroutColour: 'Color de la lechada',
  layingRotation: 'Giro',
  layingRotations: { none: 'Sin giro', half: '180°', quarter: 'De 90° en 90°' },
  layingRoomWidth: 'Ancho de la estancia (m)',
  layingRoomDepth: 'Fondo de la estancia (m)',
  layingSeed: 'Semilla',
  layingNewSeed: 'Otra semilla',
  layingPlan: 'Plano de colocación',
  layingFloor3d: 'El suelo colocado en 3D',
  layingFloor3dNote: 'Arrastra para mirar alrededor; usa la rueda para acercar o alejar',
  layingFloor3dUnavailable: 'Vista 3D no disponible: este navegador tiene WebGL desactivado',
  layingImagesError: 'No se han podido cargar las imágenes de las baldosas.',
  layingExportWidth: 'Ancho del PNG (px)',
  layingExportPng: 'Exportar PNG',

  // Upload (§5)
  uploadFormat: 'Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.',
  uploadTooLarge: 'El archivo supera el tamaño máximo permitido (25 MB).',
  uploadPixels: (width: number, height: number) =>
    `La imagen (${width}x${height}, ${megapixels(width, height)} MP) supera el máximo permitido: 17.00 MP (~4096×4096).`,
  uploadUnreadable: 'No se han podido leer las dimensiones de la imagen.',
} as const;

/** How connection problems of the messaging client read (SPEC §8); they are MQTT.js's own texts. */
export const CONNECTION_ERROR_TEXTS = [
  'connack timeout',
  'keepalive timeout',
  'client disconnecting',
  'Connection closed',
  'No connection to broker',
  'Invalid topic',
] as const;

export type ConnectionErrorText = (typeof CONNECTION_ERROR_TEXTS)[number];

export function isConnectionErrorText(message: string): message is ConnectionErrorText {
  return (CONNECTION_ERROR_TEXTS as readonly string[]).includes(message);
}
