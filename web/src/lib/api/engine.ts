import { API_ROUTES, engineInfoResponseSchema, type PreviewEngine } from '@tessera/contract';
import { getJson } from './http';

/** The engine this server makes previews with (issue 27): what the Generate screen's help says. */
export async function fetchPreviewEngine(): Promise<PreviewEngine> {
  return (await getJson(API_ROUTES.engineInfo, engineInfoResponseSchema)).preview;
}
