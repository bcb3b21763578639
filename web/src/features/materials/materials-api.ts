import {
  API_ROUTES,
  materialMapsStatusSchema,
  type MaterialMapsRequest,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { expectAnswer, getJson, postJson } from '../../lib/http';

/** Orders the image's maps; resolves with their status (the job queued). */
export async function orderMaterialMaps(request: MaterialMapsRequest): Promise<MaterialMapsStatus> {
  return expectAnswer(
    await postJson(API_ROUTES.materialMapsOrder, request),
    materialMapsStatusSchema,
  );
}

/** The image's maps and its latest maps job. */
export function fetchMaterialMaps(request: MaterialMapsRequest): Promise<MaterialMapsStatus> {
  const query = new URLSearchParams({ kind: request.kind, image: request.image });
  return getJson(`${API_ROUTES.materialMapsStatus}?${query.toString()}`, materialMapsStatusSchema);
}

/** A job that has not ended yet: the status is polled until it does. */
export function mapsRunning(status: MaterialMapsStatus | undefined): boolean {
  const state = status?.job?.status;
  return state === 'queued' || state === 'in_progress';
}
