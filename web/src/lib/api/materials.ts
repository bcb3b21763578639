import {
  API_ROUTES,
  materialMapsStatusSchema,
  materialMapUrl,
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

/**
 * A map file's (or preview's) address in the set made at `madeAt` (the status's): remade maps
 * keep their names, and the server lets a browser keep a file a minute, so the time the set was
 * made tells the browser the file is new.
 */
export function mapFileUrl(filename: string, madeAt: string | undefined): string {
  const url = materialMapUrl(filename);
  return madeAt === undefined ? url : `${url}?${new URLSearchParams({ v: madeAt }).toString()}`;
}

/** The image's maps and its latest maps job. */
export function fetchMaterialMaps(request: MaterialMapsRequest): Promise<MaterialMapsStatus> {
  const query = new URLSearchParams({ kind: request.kind, image: request.image });
  return getJson(`${API_ROUTES.materialMapsStatus}?${query.toString()}`, materialMapsStatusSchema);
}
