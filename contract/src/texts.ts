// Every user-facing text of SPEC §2, §5, §8 and §9, written once. Spec texts are verbatim;
// the few the spec leaves open (tag name required/too long, form field errors) are ours.
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
  positivePromptRequired: 'Positive prompt is required',
  negativePromptRequired: 'Negative prompt is required',
  promptTooLong: (max: number) => `Prompt must be at most ${max} characters`,
  numberOutOfRange: (min: number, max: number) => `Must be a number from ${min} to ${max}`,
  outputFormatInvalid: 'Choose one of the output formats',
  batchSizeInvalid: (min: number, max: number) => `Must be a whole number from ${min} to ${max}`,
  /** Beyond the spec (issue 25): the Faces field of a series. */
  facesInvalid: (min: number, max: number) => `Must be a whole number from ${min} to ${max}`,
  /** Beyond the spec (issue 25): under the Faces field. */
  facesHint: 'Faces of one design that join each other in any order (Seamless on)',
  /** Beyond the spec (issue 25): the badge of a face of a series, in the galleries and footer. */
  seriesFaceBadge: (face: number, faces: number) => `Face ${face}/${faces}`,
  /** Beyond the spec (issue 25): selects every face of the series in a gallery. */
  selectSeries: 'Select series',
  /** Beyond the spec (issue 25): the LD details' HD order of every face of the series. */
  generateHdForSeries: (count: number) => `Generate HD for the series (${count} faces)`,

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
  hdCancelledToast: (image: string) => `HD image generation for ${image} cancelled.`,
  /** Beyond the spec: an HD order of an image and size already on its way. */
  hdAlreadyOrderedToast: (image: string) =>
    `An HD image of ${image} at this size is already on its way.`,
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
  tagNameRequired: 'Tag name is required',
  tagNameTooLong: (max: number) => `Tag name must be at most ${max} characters`,
  tagInvalidCharacters: 'Use only standard characters (no emojis or special symbols)',
  tagDuplicate: (name: string) => `A tag with the name '${name}' already exists`,

  // Laying preview (issue 25, part 5)
  layingPreviewButton: 'Laying preview',
  layingPreviewTitle: (image: string) => `Laying preview: ${image}`,
  layingFacesNote: (faces: number) =>
    faces > 1 ? `${faces} faces of the series, laid at random` : 'One image on every tile',
  layingTileSize: 'Tile size (cm)',
  layingPattern: 'Pattern',
  layingPatterns: {
    stack: 'Stack grid',
    'running-half': 'Running bond 1/2',
    'running-third': 'Running bond 1/3',
    diagonal: 'Diagonal',
    herringbone: 'Herringbone',
    chevron: 'Chevron',
    basketweave: 'Basketweave',
  },
  layingJoint: 'Joint (mm)',
  layingGroutColour: 'Grout colour',
  layingRotation: 'Rotation',
  layingRotations: { none: 'None', half: '180°', quarter: '90° steps' },
  layingRoomWidth: 'Room width (m)',
  layingRoomDepth: 'Room depth (m)',
  layingSeed: 'Seed',
  layingNewSeed: 'New seed',
  layingPlan: 'Laying plan',
  layingFloor3d: 'Laid floor in 3D',
  layingFloor3dNote: 'Drag to look around, scroll to zoom',
  layingFloor3dUnavailable: '3D view unavailable: this browser has WebGL turned off',
  layingImagesError: 'The tile pictures could not be loaded.',
  layingExportWidth: 'PNG width (px)',
  layingExportPng: 'Export PNG',

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
