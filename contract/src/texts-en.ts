// TEXTS in English (issue 30, part 5). The spec's English texts read the same; its Spanish ones
// are translated. Upload sizes keep the spec's "17.00 MP" (a point is English's decimal mark too).
import type { Translation } from './i18n.js';
import { megapixels, type TEXTS } from './texts.js';

export const TEXTS_EN: Translation<typeof TEXTS> = {
  loginFailed: 'Login failed',

  imageListError: 'Error getting the list of images.',
  noImagesFound: 'No images found.',
  refreshing: 'Refreshing...',

  generationError: 'Error generating the images.',
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
  facesInvalid: (min: number, max: number) => `Must be a whole number from ${min} to ${max}`,
  facesHint: 'Faces of one design that join each other in any order (Seamless on)',
  seriesFaceBadge: (face: number, faces: number) => `Face ${face}/${faces}`,
  selectSeries: 'Select series',
  generateHdForSeries: (count: number) => `Generate HD for the series (${count} faces)`,

  hdSizeRequired: 'Choose a valid option.',
  generatingHdButton: (percent: number) => `Generating HD... (${percent}%)`,
  downloadHdImage: 'Download HD Image',
  hdErrorToast: (image: string) => `Error generating HD image for ${image}. Retrying...`,
  hdQueuedToast: (image: string) => `HD image generation for ${image} added to queue.`,
  hdInProgressToast: (percent: number, count: number) =>
    `Generating HD... (${percent}%) (Queued: ${count})`,
  hdFinishedToast: (image: string) => `HD image generation for ${image} finished.`,
  hdCancelledToast: (image: string) => `HD image generation for ${image} cancelled.`,
  hdAlreadyOrderedToast: (image: string) =>
    `An HD image of ${image} at this size is already on its way.`,
  unknownStatus: 'Unknown status message.',
  hdRemovedByRetention: (date: string) => `Removed by the retention policy on ${date}`,
  hdRemovedByRetentionHint: 'Order the HD again from its LD image.',

  responseTimedOut: 'Response timed out',

  tagNameRequired: 'Tag name is required',
  tagNameTooLong: (max: number) => `Tag name must be at most ${max} characters`,
  tagInvalidCharacters: 'Use only standard characters (no emojis or special symbols)',
  tagDuplicate: (name: string) => `A tag with the name '${name}' already exists`,

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

  uploadFormat: 'Format not supported. Use: png, jpg, jpeg, bmp, gif or webp.',
  uploadTooLarge: 'The file is larger than the largest size allowed (25 MB).',
  uploadPixels: (width: number, height: number) =>
    `The image (${width}x${height}, ${megapixels(width, height)} MP) is larger than the maximum allowed: 17.00 MP (~4096×4096).`,
  uploadUnreadable: 'The dimensions of the image could not be read.',
};
