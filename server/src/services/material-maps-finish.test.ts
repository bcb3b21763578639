import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DEFAULT_HEIGHT_SETTINGS,
  PROMPT_TERMS_METADATA_KEY,
  understandPrompts,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../files/file-store.js';
import { WorkerMaterialMapsMaker } from '../imaging/material-maps/maker.js';
import type { MapsJobParams } from '../jobs/job.js';
import type { JobContext } from '../jobs/runner.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { MaterialMapRepository } from '../store/material-maps.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { greyImage } from '../testing/material-maps.js';
import { imageRecord, jobRecord } from '../testing/records.js';
import { strictFake } from '../testing/strict-fake.js';
import type { Owner } from '../owner.js';
import { MaterialMapService } from './material-maps.js';

// The finish an image's prompts name (issue 27) reaches its roughness map: the service reads
// the understood terms from the LD metadata (an HD image's from its LD source) and the real
// maker, in its worker, makes a polished image's map smoother than a matte one's of the same
// pixels. The file store and the tables are fakes; the maps are real.

const ann: Owner = { id: 1, username: 'ann' };
const SIDE = 64;
const terms = (positive: string, negative = '') => ({
  [PROMPT_TERMS_METADATA_KEY]: understandPrompts(positive, negative),
});
const IMAGES: ImageRecord[] = [
  imageRecord({ id: 1, filename: 'polished.png', metadata: terms('pulido') }),
  imageRecord({ id: 2, filename: 'matte.png', metadata: terms('matte grey') }),
  // The negative prompt cancels the positive's finish: the plain map.
  imageRecord({ id: 3, filename: 'cancelled.png', metadata: terms('matte', 'matte') }),
  imageRecord({ id: 4, filename: 'plain.png', metadata: {} }),
  imageRecord({
    id: 5,
    kind: 'hd',
    filename: 'polished-hd.png',
    metadata: { source_image: 'polished.png' },
  }),
];

const { dir, remove } = tempDir('tessera-maps-finish-');
afterAll(remove);

/** The mean roughness of the map the service makes of `image` (the same pixels for every one). */
async function roughnessOf(image: ImageRecord): Promise<number> {
  const png = await sharp(
    Buffer.from(greyImage(SIDE, SIDE, (x, y) => 128 + 60 * Math.sin(x / 4) * Math.cos(y / 6))),
    { raw: { width: SIDE, height: SIDE, channels: 1 } },
  )
    .png()
    .toBuffer();
  const written = new Map<string, Buffer>();
  const folder = fs.mkdtempSync(path.join(dir, 'run-'));
  let made = 0;
  const service = new MaterialMapService(
    strictFake<ImageRepository>('images', {
      find: (ownerId, kind, filename) =>
        Promise.resolve(IMAGES.find((r) => r.kind === kind && r.filename === filename)),
    }),
    strictFake<MaterialMapRepository>('maps', { replace: () => Promise.resolve() }),
    strictFake<FileStore>('files', {
      read: () => Readable.from([png]),
      write: async (_owner, _area, name, data) => {
        const chunks: Buffer[] = [];
        for await (const chunk of data as Readable) chunks.push(chunk as Buffer);
        written.set(name, Buffer.concat(chunks));
        return { name, bytes: written.get(name)?.length ?? 0, modifiedAt: new Date(0) };
      },
    }),
    strictFake('jobs'),
    strictFake('scheduler'),
    new WorkerMaterialMapsMaker(() =>
      Promise.resolve({
        newFile: (extension: string) => ({ path: path.join(folder, `${made++}.${extension}`) }),
        dispose: () => fs.promises.rm(folder, { recursive: true, force: true }),
      }),
    ),
    silentLogger,
  );
  const params: MapsJobParams = {
    owner: ann,
    kind: image.kind,
    image: image.filename,
    height: DEFAULT_HEIGHT_SETTINGS,
  };
  await service.runMaps(
    jobRecord({ kind: 'maps', params }, { status: 'in_progress' }),
    strictFake<JobContext>('context', {
      progress: () => undefined,
      signal: new AbortController().signal,
    }),
  );
  const [, map] = [...written].find(([name]) => name.endsWith('_roughness.png')) ?? [];
  if (!map) throw new Error('no roughness map written');
  const { data } = await sharp(map).raw().toBuffer({ resolveWithObject: true });
  return data.reduce((sum, v) => sum + v, 0) / data.length;
}

describe(
  'the roughness map follows the finish in the image’s metadata',
  { timeout: 60_000 },
  () => {
    it('polished is smoother than matte from the same pixels; no finish, the plain map', async () => {
      const [polished = 0, matte = 0, cancelled, plain = 0, hd] = await Promise.all(
        IMAGES.map(roughnessOf),
      );
      expect(polished).toBeLessThan(matte - 80);
      expect(cancelled).toBe(plain);
      expect(polished).toBeLessThan(plain - 40);
      expect(matte).toBeGreaterThan(plain + 20);
      // An HD image's maps follow its LD source's prompts.
      expect(hd).toBe(polished);
    });
  },
);
