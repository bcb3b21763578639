// The OpenAPI table of the user's files and what is made of them: image files, ZIPs, material
// maps and packages, print files and reference checks. Shapes are the contract's schemas.
import { z } from 'zod';
import {
  BAD_REQUEST,
  JSON_BODY,
  fileAnswer,
  json,
  refusal,
  type ApiAnswer,
  type ApiOperation,
} from './api-operation.js';
import {
  materialMapsOrderSchema,
  materialMapsRequestSchema,
  materialMapsStatusSchema,
} from './material-maps.js';
import { materialPackageQuerySchema } from './material-package.js';
import {
  printEstimateQuerySchema,
  printEstimateSchema,
  printFileSchema,
  printFilesQuerySchema,
  printFilesResponseSchema,
  printOrderSchema,
  printProfilesResponseSchema,
} from './print.js';
import { referenceAnalysisSchema } from './reference-analysis.js';
import { API_ROUTES } from './routes.js';
import {
  zipDownloadProgressSchema,
  zipDownloadRequestSchema,
  zipDownloadTicketSchema,
} from './zip.js';

const NOT_FOUND = refusal('No such file of this user (whether another user has one is not told).');
const ZIP_TYPE = ['application/zip'];
const ATTACHMENT = { 'content-disposition': 'attachment, with the name to save it under' };
const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/bmp'];

/** A stored file: cached briefly and revalidated (ETag), byte ranges answered. */
function fileOperation(
  path: string,
  summary: string,
  contentTypes: readonly string[],
  download: boolean,
  inSpec = false,
): ApiOperation {
  const headers = { etag: 'A strong validator', ...(download && ATTACHMENT) };
  const answers: Record<number, ApiAnswer> = {
    200: fileAnswer(contentTypes, 'The file.', headers),
    206: fileAnswer(contentTypes, 'The byte range asked for (Range, If-Range).', headers),
    304: { description: 'Not modified (If-None-Match).' },
    404: NOT_FOUND,
    416: { description: 'The range starts past the end of the file.' },
  };
  return {
    method: 'GET',
    path,
    tag: 'Files',
    summary,
    auth: 'session',
    scope: 'read',
    responses: answers,
    inSpec,
  };
}

const REFERENCE_UPLOAD = {
  contentType: 'multipart/form-data',
  schema: z.object({
    image: z.string().describe('The reference image file (SPEC §5: at most 25 MB and 17 MP).'),
  }),
};
const UPLOAD_REFUSED = {
  400: refusal('No image part, or the file is no usable image (the text says why).'),
  413: refusal('The file is larger than 25 MB (SPEC §5).'),
  429: refusal('Too many reference checks at once: try again.'),
};

export const FILE_OPERATIONS: readonly ApiOperation[] = [
  fileOperation(API_ROUTES.ldImage, 'A preview (LD) image', ['image/png'], false, true),
  fileOperation(API_ROUTES.ldThumbnail, "A preview image's thumbnail", ['image/webp'], false, true),
  fileOperation(
    API_ROUTES.hdImage,
    'An HD image',
    ['image/png', 'image/jpeg', 'image/tiff'],
    true,
    true,
  ),
  fileOperation(API_ROUTES.hdThumbnail, "An HD image's thumbnail", ['image/webp'], false, true),
  fileOperation(API_ROUTES.inputImage, 'An uploaded reference image', UPLOAD_TYPES, false),
  fileOperation(API_ROUTES.mapImage, 'A material map file or its preview', ['image/png'], true),
  fileOperation(API_ROUTES.printFile, 'A print file (TIFF)', ['image/tiff'], true),

  // A selection of images as one ZIP (issue 13).
  {
    method: 'POST',
    path: API_ROUTES.zipCreate,
    tag: 'Downloads',
    summary: 'Check a selection of images and get a one-time ZIP ticket',
    auth: 'session',
    scope: 'read',
    body: JSON_BODY(zipDownloadRequestSchema),
    responses: {
      200: json(zipDownloadTicketSchema, 'The ticket: GET the ZIP once with its token.'),
      400: BAD_REQUEST,
      404: refusal('An image of the selection does not exist.'),
      429: refusal('Too many ZIP downloads of this user are open.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.zipFile,
    tag: 'Downloads',
    summary: 'The ZIP of a ticket, once',
    auth: 'session',
    scope: 'read',
    responses: {
      200: fileAnswer(ZIP_TYPE, 'The ZIP, with its exact Content-Length.', ATTACHMENT),
      404: refusal('No such ticket, or it was used or expired.'),
      410: refusal('An image of the selection was deleted since.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.zipProgress,
    tag: 'Downloads',
    summary: 'How far the server has sent the ZIP',
    auth: 'session',
    scope: 'read',
    responses: {
      200: json(zipDownloadProgressSchema, 'The bytes sent.'),
      404: refusal('No such ticket.'),
    },
  },

  // PBR material maps (issue 17) and packages (issue 26).
  {
    method: 'POST',
    path: API_ROUTES.materialMapsOrder,
    tag: 'Materials',
    summary: "Order an image's material maps",
    auth: 'session',
    scope: 'generate',
    body: JSON_BODY(materialMapsOrderSchema),
    responses: {
      202: json(materialMapsStatusSchema, 'Ordered: the status as it now is.'),
      400: BAD_REQUEST,
      404: refusal('The image does not exist.'),
      409: refusal("The image's maps job runs with other height settings."),
      429: refusal('Too many jobs of this user are waiting.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.materialMapsStatus,
    tag: 'Materials',
    summary: "An image's material maps and their latest job",
    auth: 'session',
    scope: 'read',
    query: materialMapsRequestSchema,
    responses: {
      200: json(materialMapsStatusSchema, 'The maps made and the latest job.'),
      400: BAD_REQUEST,
      404: refusal('The image does not exist.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.materialPackage,
    tag: 'Materials',
    summary: "An image's material package (maps, preview and material files) as a ZIP",
    auth: 'session',
    scope: 'read',
    query: materialPackageQuerySchema,
    responses: {
      200: fileAnswer(ZIP_TYPE, 'The package.', ATTACHMENT),
      400: refusal('The query is invalid, or the size does not fit the image.'),
      404: refusal('The image does not exist.'),
      409: refusal('The maps are not made yet, or are being remade.'),
    },
  },

  // Print files (issue 26).
  {
    method: 'GET',
    path: API_ROUTES.printProfiles,
    tag: 'Print',
    summary: "sRGB and the operator's ICC profiles",
    auth: 'session',
    scope: 'read',
    responses: { 200: json(printProfilesResponseSchema, 'The profiles.') },
  },
  {
    method: 'GET',
    path: API_ROUTES.printEstimate,
    tag: 'Print',
    summary: "A print file's pixels and bytes before it is made",
    auth: 'session',
    scope: 'read',
    query: printEstimateQuerySchema,
    responses: {
      200: json(printEstimateSchema, 'The estimate.'),
      400: refusal('The settings are invalid, or the profile is unknown.'),
      404: refusal('The HD image does not exist.'),
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.printOrder,
    tag: 'Print',
    summary: 'Order a print file of an HD image (a job)',
    auth: 'session',
    scope: 'generate',
    body: JSON_BODY(printOrderSchema),
    responses: {
      202: json(printFileSchema, 'Ordered.'),
      400: refusal('The settings are invalid, or the profile is unknown.'),
      404: refusal('The HD image does not exist.'),
      409: refusal('This print file is ordered already.'),
      429: refusal('Too many jobs of this user are waiting.'),
    },
  },
  {
    method: 'GET',
    path: API_ROUTES.printFiles,
    tag: 'Print',
    summary: "An HD image's print files and their jobs",
    auth: 'session',
    scope: 'read',
    query: printFilesQuerySchema,
    responses: {
      200: json(printFilesResponseSchema, 'The print files.'),
      400: BAD_REQUEST,
      404: refusal('The HD image does not exist.'),
    },
  },

  // Reference checks (issue 27): nothing is stored.
  {
    method: 'POST',
    path: API_ROUTES.referenceAnalysis,
    tag: 'References',
    summary: 'Check a reference image before generating from it',
    auth: 'session',
    scope: 'generate',
    body: REFERENCE_UPLOAD,
    responses: {
      200: json(referenceAnalysisSchema, 'Its warnings and figures.'),
      ...UPLOAD_REFUSED,
    },
  },
  {
    method: 'POST',
    path: API_ROUTES.referenceDelight,
    tag: 'References',
    summary: 'A reference with its lighting drift taken out',
    auth: 'session',
    scope: 'generate',
    body: REFERENCE_UPLOAD,
    responses: { 200: fileAnswer(['image/png'], 'The prepared reference.'), ...UPLOAD_REFUSED },
  },
];
