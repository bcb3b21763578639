import { API_ROUTES, referenceAnalysisSchema, TEXT_BUNDLES } from '@tessera/contract';
import type { ReferenceAnalysis } from '@tessera/contract';
import { currentTexts } from '../i18n/locale';
import { ACCEPT_ANY, expectAnswer, HttpError, send } from './http';

/** The multipart body of a reference check: the preview's file part `image`, nothing else. */
function imageForm(image: Blob, name: string): FormData {
  const body = new FormData();
  body.append('image', image, name);
  return body;
}

/**
 * POST /api/command/reference-analysis (issue 27, part 5): the reference's warnings and figures.
 * Rejects with an HttpError carrying the server's text when it is refused.
 */
export async function analyseReference(
  image: Blob,
  name: string,
  signal?: AbortSignal,
): Promise<ReferenceAnalysis> {
  const answer = await send(API_ROUTES.referenceAnalysis, {
    method: 'POST',
    body: imageForm(image, name),
    ...(signal && { signal }),
  });
  return expectAnswer(answer, referenceAnalysisSchema);
}

/** POST /api/command/reference-delight: the picture with its lighting drift taken out, a PNG. */
export async function removeReferenceLighting(
  image: Blob,
  name: string,
  signal?: AbortSignal,
): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(API_ROUTES.referenceDelight, {
      method: 'POST',
      credentials: 'same-origin',
      body: imageForm(image, name),
      ...(signal && { signal }),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(currentTexts(TEXT_BUNDLES.shell).unreachable, 0);
  }
  if (!response.ok) {
    // A refusal is JSON with the server's text: expectAnswer throws it as an HttpError.
    const body = (await response.json().catch(() => undefined)) as unknown;
    expectAnswer({ status: response.status, ok: false, body }, ACCEPT_ANY);
  }
  return response.blob();
}
