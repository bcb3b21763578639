import {
  API_ROUTES,
  TEXT_BUNDLES,
  generationStatusResponseSchema,
  inputImageUrl,
  inputsResponseSchema,
  PREVIEW_REQUEST_FIELDS,
} from '@tessera/contract';
import type { GenerationStatusResponse, InputImage, PreviewRequestFields } from '@tessera/contract';
import { currentTexts, serverText } from '../i18n/locale';
import { ACCEPT_ANY, expectAnswer, getJson, HttpError, send } from './http';

/** The multipart body of a preview job: the file part `image`, then the text fields. */
export function previewFormData(fields: PreviewRequestFields, image: Blob): FormData {
  const body = new FormData();
  // The file part comes first, so the server has the reference before it reads the fields.
  body.append('image', image, fields.image);
  // In the order of SPEC §7's list; `mask` is ours (the spec has no field for the Mask toggle).
  for (const name of PREVIEW_REQUEST_FIELDS) {
    const value = fields[name];
    if (value !== undefined) body.append(name, value);
  }
  return body;
}

/**
 * POST /api/command/generate-image/preview (SPEC §7). The answer's body is not read: the result
 * comes through the status call. Rejects with an HttpError unless the job was accepted.
 */
export async function postPreviewJob(fields: PreviewRequestFields, image: Blob): Promise<void> {
  const answer = await send(API_ROUTES.generatePreview, {
    method: 'POST',
    body: previewFormData(fields, image),
  });
  // Any accepted answer will do; a refusal becomes an HttpError with the server's text.
  expectAnswer(answer, ACCEPT_ANY);
}

/**
 * GET /api/query/status-generate-image/preview with a cache-busting `t`: the status of the
 * user's latest preview job, or null when the user has none yet (404).
 */
export async function fetchPreviewStatus(
  now: () => number = Date.now,
): Promise<GenerationStatusResponse | null> {
  const answer = await send(`${API_ROUTES.previewStatus}?t=${now()}`, {
    cache: 'no-store',
  });
  if (answer.status === 404) return null;
  const status = expectAnswer(answer, generationStatusResponseSchema);
  // The server's notice (a job waiting for the image storage) in the language shown.
  return status.notice === undefined ? status : { ...status, notice: serverText(status.notice) };
}

/** An uploaded reference as a File, to post again as a new job's reference. */
export async function fetchInputImage(filename: string): Promise<File> {
  let response: Response;
  try {
    response = await fetch(inputImageUrl(filename), { credentials: 'same-origin' });
  } catch {
    throw new HttpError(currentTexts(TEXT_BUNDLES.shell).unreachable, 0);
  }
  if (!response.ok) {
    throw new HttpError(
      currentTexts(TEXT_BUNDLES.shell).serverStatus(response.status),
      response.status,
    );
  }
  const blob = await response.blob();
  return new File([blob], filename, { type: blob.type });
}

/** GET /api/query/inputs: the user's uploaded references, newest first, with what each made. */
export async function fetchInputs(): Promise<InputImage[]> {
  return (await getJson(API_ROUTES.inputs, inputsResponseSchema)).inputs;
}
