import {
  API_ROUTES,
  materialMapsStatusSchema,
  type MaterialMapsOrder,
  type MaterialMapsRequest,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { expectAnswer, getJson, postJson } from './http';

/** Orders the image's maps, read with these height settings; resolves with their status. */
export async function orderMaterialMaps(request: MaterialMapsOrder): Promise<MaterialMapsStatus> {
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
