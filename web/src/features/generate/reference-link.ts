import { SCREEN_PATHS } from '@tessera/contract';
/** The query parameter that opens Generate with an uploaded reference (/input links with it). */
export const REFERENCE_PARAM = 'reference';

/** The address of Generate with the uploaded reference `filename` loaded. */
export function generateWithReference(filename: string): string {
  return `${SCREEN_PATHS.generate}?${new URLSearchParams({ [REFERENCE_PARAM]: filename })}`;
}
