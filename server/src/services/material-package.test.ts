import { Readable } from 'node:stream';
import {
  DEFAULT_HEIGHT_SETTINGS,
  errorText,
  MATERIAL_MAPS,
  type MaterialMapsStatus,
} from '@tessera/contract';
import { describe, expect, it, vi } from 'vitest';
import type { FileStore, Scratch } from '../files/file-store.js';
import type {
  MaterialPackageInput,
  MaterialPackageMaker,
} from '../imaging/material-package/maker.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import { silentLogger } from '../testing/fixtures.js';
import { strictFake } from '../testing/strict-fake.js';
import {
  MaterialPackageService,
  packageTile,
  type MaterialMapsReader,
} from './material-package.js';

const alice = { id: 1, username: 'alice' };

function image(kind: 'ld' | 'hd', width: number, height: number, metadata = {}): ImageRecord {
  const filename = kind === 'ld' ? 'waves.png' : 'waves-60x120.png';
  return {
    ...{ id: 7, ownerId: 1, kind, filename, sourceImageId: null, width, height, bytes: 1 },
    ...{ metadata, createdAt: '2026-01-01T00:00:00.000Z', starred: false, hdRemovedAt: null },
  };
}

const RECTANGLE = image('ld', 1448, 724);

const status = (strength: number, maps = true): MaterialMapsStatus => ({
  job: null,
  maps: maps
    ? MATERIAL_MAPS.map((map) => ({ map, filename: `m-${map}.png`, bytes: 1, preview: 'p.png' }))
    : [],
  seamless: true,
  height: { ...DEFAULT_HEIGHT_SETTINGS, strength },
});

/** A service over strict fakes: the image, its maps' status, a file store with a scratch folder. */
function serviceWith(options: {
  record?: ImageRecord;
  maps?: MaterialMapsStatus;
  make?: MaterialPackageMaker['make'];
  concurrent?: number;
}) {
  const scratch = strictFake<Scratch>('scratch', {
    copyOf: (_owner, area, name) => Promise.resolve(`/local/${area}/${name}`),
    dispose: vi.fn(() => Promise.resolve()),
  });
  const files = strictFake<FileStore>('files', {
    stat: (_owner, _area, name) => Promise.resolve({ name, bytes: 1, modifiedAt: new Date(0) }),
    openScratch: vi.fn(() => Promise.resolve(scratch)),
  });
  const made: MaterialPackageInput[] = [];
  const maker = strictFake<MaterialPackageMaker>('maker', {
    make:
      options.make ??
      ((input) => {
        made.push(input);
        return Promise.resolve([
          { name: 'waves_ld_diff.png', bytes: 3, open: () => Readable.from([Buffer.from('png')]) },
        ]);
      }),
  });
  const service = new MaterialPackageService(
    strictFake<ImageRepository>('images', { find: () => Promise.resolve(options.record) }),
    strictFake<MaterialMapsReader>('maps', { status: () => Promise.resolve(options.maps) }),
    files,
    maker,
    silentLogger,
    options.concurrent,
  );
  return { service, files, scratch, made };
}

const query = { kind: 'ld', image: 'waves.png', preset: 'standard', lang: 'es' } as const;

describe('the tile a package is sized to', () => {
  it("is an LD image's first HD size, or the one asked for when its format offers it", () => {
    expect(packageTile(RECTANGLE, undefined)).toEqual({
      label: '30x60',
      widthCm: 60,
      heightCm: 30,
    });
    expect(packageTile(RECTANGLE, '45x90')).toEqual({ label: '45x90', widthCm: 90, heightCm: 45 });
    expect(packageTile(RECTANGLE, '30x30')).toBeUndefined();
    expect(packageTile(image('ld', 1024, 1024), undefined)?.label).toBe('30x30');
    // A picture of no output format has no HD size, so no tile.
    expect(packageTile(image('ld', 512, 512), undefined)).toBeUndefined();
  });

  it("is an HD image's own size, by its factors or its size field, whatever is asked", () => {
    const byFactors = image('hd', 4127, 2063, {
      rescale_factor_cr701: 1.5,
      scale_by_image692: 3.77,
    });
    expect(packageTile(byFactors, '30x60')).toEqual({
      label: '60x120',
      widthCm: 120,
      heightCm: 60,
    });
    expect(packageTile(image('hd', 700, 1600, { size: '160x70' }), undefined)).toEqual({
      label: '160x70',
      widthCm: 70,
      heightCm: 160,
    });
    expect(packageTile(image('hd', 700, 1600), undefined)).toBeUndefined();
  });
});

describe('making a package', () => {
  it("sizes the displacement by the maps' height strength, names the files by the image", async () => {
    const { service, scratch, made } = serviceWith({ record: RECTANGLE, maps: status(2) });
    const result = await service.open(alice, query);
    if (!result.ok) throw new Error(result.error);
    expect(made).toEqual([
      {
        name: 'waves_ld',
        preset: 'standard',
        image: '/local/ld/waves.png',
        maps: Object.fromEntries(MATERIAL_MAPS.map((m) => [m, `/local/maps/m-${m}.png`])),
        widthM: 0.6,
        heightM: 0.3,
        // A hundredth of the shorter side, twice for strength 2: 6 mm.
        displacementM: 0.006,
      },
    ]);
    expect(result.zip.filename).toBe('waves_ld_material.zip');
    // The ZIP is stored: its size is its entries', headers and README's, known before sending.
    expect(result.zip.total).toBeGreaterThan(3);
    result.zip.close();
    result.zip.close();
    await vi.waitFor(() => expect(scratch.dispose).toHaveBeenCalledTimes(1));
  });

  it('removes the scratch folder when making fails, and fails', async () => {
    const { service, scratch } = serviceWith({
      record: RECTANGLE,
      maps: status(1),
      make: () => Promise.reject(new Error('libvips: out of disk')),
    });
    await expect(service.open(alice, query)).rejects.toThrow('out of disk');
    expect(scratch.dispose).toHaveBeenCalledTimes(1);
  });

  it('stops when the browser left while the files were made: nothing sent, the folder removed', async () => {
    const left = new AbortController();
    let finish: (() => void) | undefined;
    const { service, scratch } = serviceWith({
      record: RECTANGLE,
      maps: status(1),
      make: () => new Promise((resolve) => (finish = () => resolve([]))),
    });
    const opening = service.open(alice, query, left.signal);
    await vi.waitFor(() => expect(finish).toBeDefined());
    left.abort();
    finish?.();
    await expect(opening).rejects.toThrow();
    expect(scratch.dispose).toHaveBeenCalledTimes(1);
  });

  it('refuses before any file is touched: no image, no tile, no maps', async () => {
    const cases = [
      [{}, 404, errorText('ORDERED_IMAGE_NOT_FOUND', 'waves.png')],
      [
        { record: image('ld', 512, 512), maps: status(1) },
        400,
        errorText('HD_SIZE_NOT_OFFERED', '-'),
      ],
      [{ record: RECTANGLE, maps: status(1, false) }, 409, errorText('MATERIAL_PACKAGE_NO_MAPS')],
    ] as const;
    for (const [options, code, error] of cases) {
      const { service, files } = serviceWith(options);
      expect(await service.open(alice, query)).toEqual({ ok: false, status: code, error });
      expect(files.openScratch).not.toHaveBeenCalled();
    }
  });

  it('makes at most `concurrentBuilds` packages at once; the others wait their turn', async () => {
    const finish: (() => void)[] = [];
    const { service, made } = serviceWith({
      record: RECTANGLE,
      maps: status(1),
      concurrent: 1,
      make: (input) => {
        made.push(input);
        return new Promise((resolve) => finish.push(() => resolve([])));
      },
    });
    const first = service.open(alice, query);
    const second = service.open(alice, query);
    await vi.waitFor(() => expect(made).toHaveLength(1));
    // The second waits while the first is made…
    await new Promise((resolve) => setImmediate(resolve));
    expect(made).toHaveLength(1);
    finish[0]?.();
    await first;
    // …and starts once it is done.
    await vi.waitFor(() => expect(made).toHaveLength(2));
    finish[1]?.();
    await second;
  });
});
