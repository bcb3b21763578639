import {
  API_ROUTES,
  printEstimateSchema,
  printFileSchema,
  printFilesResponseSchema,
  printProfilesResponseSchema,
  type PrintEstimate,
  type PrintFile,
  type PrintOrder,
  type PrintProfile,
} from '@tessera/contract';
import { expectAnswer, getJson, postJson } from './http';

/** sRGB and the operator's ICC profiles, as the server lists them. */
export async function fetchPrintProfiles(): Promise<PrintProfile[]> {
  return (await getJson(API_ROUTES.printProfiles, printProfilesResponseSchema)).profiles;
}

/** How large the print file of `order` will be: its pixels, and its bytes before and after. */
export function fetchPrintEstimate(order: PrintOrder): Promise<PrintEstimate> {
  const query = new URLSearchParams({
    image: order.image,
    dpi: String(order.dpi),
    bleedMm: String(order.bleedMm),
    compression: order.compression,
    bitDepth: String(order.bitDepth),
    profile: order.profile,
  });
  return getJson(`${API_ROUTES.printEstimate}?${query.toString()}`, printEstimateSchema);
}

/** Orders a print file; resolves with it, queued. */
export async function orderPrintFile(order: PrintOrder): Promise<PrintFile> {
  return expectAnswer(await postJson(API_ROUTES.printOrder, order), printFileSchema);
}

/** The HD image's print files, newest first. */
export async function fetchPrintFiles(image: string): Promise<PrintFile[]> {
  const query = new URLSearchParams({ image });
  return (await getJson(`${API_ROUTES.printFiles}?${query.toString()}`, printFilesResponseSchema))
    .files;
}
