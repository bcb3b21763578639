// Test data for the material maps tests: an image's maps status as the server answers it, with
// what a test names overriding the defaults.
import { DEFAULT_HEIGHT_SETTINGS, MATERIAL_MAPS, type MaterialMapsStatus } from '@tessera/contract';

/** No maps yet and no job: an LD image of a seamless tile whose maps were never ordered. */
export const NO_MAPS: MaterialMapsStatus = {
  job: null,
  maps: [],
  seamless: true,
  height: DEFAULT_HEIGHT_SETTINGS,
};

/** The job finished: the five maps of LD image `<stem>.png` and their previews. */
export function finishedMaps(
  stem: string,
  overrides: Partial<MaterialMapsStatus> = {},
): MaterialMapsStatus {
  return {
    job: { id: 'j1', status: 'finished', percent: 100 },
    maps: MATERIAL_MAPS.map((map) => ({
      map,
      filename: `${stem}_ld_${map}.png`,
      bytes: 1000,
      preview: `${stem}_ld_${map}.preview.png`,
    })),
    colourPreview: `${stem}_ld_colour.preview.jpg`,
    seamless: true,
    height: DEFAULT_HEIGHT_SETTINGS,
    ...overrides,
  };
}
