import type { Readable } from 'node:stream';
import {
  errorText,
  hdPrintSize,
  hdSizesForImage,
  isHdSizeLabel,
  MATERIAL_MAPS,
  sizeLabelFromFactors,
  type HdSizeLabel,
  type MaterialMap,
  type MaterialMapsRequest,
  type MaterialMapsStatus,
  type MaterialPackageQuery,
  type MaterialPreset,
} from '@tessera/contract';
import type { Logger } from 'pino';
import { ZipFile } from 'yazl';
import type { FileStore, Scratch } from '../files/file-store.js';
import type { MaterialPackageMaker, PackageFile } from '../imaging/material-package/maker.js';
import type { ImageRecord, ImageRepository } from '../store/images.js';
import type { Owner } from '../owner.js';
import { stem } from './generation.js';
import { packageReadme } from './material-package-readme.js';
import { endZip } from './zip-downloads.js';

/** What the package needs to know of the maps: the files made last, and how they read height. */
export interface MaterialMapsReader {
  status(owner: Owner, request: MaterialMapsRequest): Promise<MaterialMapsStatus | undefined>;
}

/** A package ready to send: its exact size, and its bytes as they are read from the files. */
export interface OpenPackage {
  filename: string;
  total: number;
  stream: Readable;
  /** The response closed (sent or broken off): stops reading and removes the scratch files. */
  close(): void;
}

export type PackageResult =
  { ok: true; zip: OpenPackage } | { ok: false; status: 400 | 404 | 409; error: string };

/** The tile a package is sized to: an HD size label and its sides. */
export interface PackageTile {
  label: HdSizeLabel;
  widthCm: number;
  heightCm: number;
}

/**
 * The relief the displacement gives at strength 1: a hundredth of the tile's shorter side (3 mm
 * on a 30 cm tile), about what a picture of bricks or stone at that scale shows.
 */
export const RELIEF_PER_SIDE = 0.01;

/** Packages made at once by this process; more wait their turn (each is seconds of libvips on HD). */
const DEFAULT_CONCURRENT_BUILDS = 2;

/**
 * Material packages (issue 26, part 3): an LD or HD image with its maps as one ZIP of the maps
 * under Poly Haven's names, the packed maps and, for the standard preset, a glTF binary and a
 * MaterialX document of a tile of the ordered size. The files are made in a scratch folder
 * before the first byte (so the ZIP's size is known, and a failure is an answer, not a broken
 * download), then streamed stored, as the gallery ZIPs are.
 */
export class MaterialPackageService {
  private readonly gate: Gate;

  constructor(
    private readonly images: ImageRepository,
    private readonly maps: MaterialMapsReader,
    private readonly files: FileStore,
    private readonly maker: MaterialPackageMaker,
    private readonly log: Logger,
    concurrentBuilds = DEFAULT_CONCURRENT_BUILDS,
  ) {
    this.gate = new Gate(concurrentBuilds);
  }

  async open(
    owner: Owner,
    query: MaterialPackageQuery,
    signal?: AbortSignal,
  ): Promise<PackageResult> {
    const refuse = (status: 400 | 404 | 409, error: string): PackageResult => {
      this.log.info({ user: owner.username, ...query, error }, 'material package refused');
      return { ok: false, status, error };
    };
    const image = await this.images.find(owner.id, query.kind, query.image);
    if (!image) return refuse(404, errorText('ORDERED_IMAGE_NOT_FOUND', query.image));
    const tile = packageTile(image, query.size);
    if (!tile) return refuse(400, errorText('HD_SIZE_NOT_OFFERED', query.size ?? '-'));
    const status = await this.maps.status(owner, { kind: query.kind, image: image.filename });
    const mapNames = status && storedMaps(status);
    if (!status || !mapNames) return refuse(409, errorText('MATERIAL_PACKAGE_NO_MAPS'));
    // A file gone since the rows were read (deleted meanwhile) is a refusal too, not a failure.
    if (!(await this.files.stat(owner.username, query.kind, image.filename))) {
      return refuse(404, errorText('ORDERED_IMAGE_NOT_FOUND', query.image));
    }
    for (const name of Object.values(mapNames)) {
      if (!(await this.files.stat(owner.username, 'maps', name))) {
        return refuse(409, errorText('MATERIAL_PACKAGE_NO_MAPS'));
      }
    }

    const name = `${stem(image.filename)}_${query.kind}`;
    const widthM = tile.widthCm / 100;
    const heightM = tile.heightCm / 100;
    // Rounded to a micrometre: the README and the MaterialX document write it as a plain decimal.
    const displacementM = Number(
      (Math.min(widthM, heightM) * RELIEF_PER_SIDE * status.height.strength).toFixed(6),
    );
    const started = Date.now();
    const { scratch, made } = await this.build(signal, async (scratch) => {
      const local = (area: 'ld' | 'hd' | 'maps', file: string) =>
        scratch.copyOf(owner.username, area, file);
      const maps = {} as Record<MaterialMap, string>;
      for (const map of MATERIAL_MAPS) maps[map] = await local('maps', mapNames[map]);
      return this.maker.make(
        {
          name,
          preset: query.preset,
          image: await local(query.kind, image.filename),
          maps,
          widthM,
          heightM,
          displacementM,
        },
        scratch,
      );
    });
    const readme = packageReadme({
      name,
      image: image.filename,
      kind: query.kind,
      preset: query.preset,
      sizeLabel: tile.label,
      widthCm: tile.widthCm,
      heightCm: tile.heightCm,
      seamless: status.seamless,
      displacementM,
      locale: query.lang,
    });
    const zip = await this.zipOf(made, Buffer.from(readme), scratch, owner);
    this.log.info(
      {
        user: owner.username,
        ...query,
        tile: tile.label,
        bytes: zip.total,
        ms: Date.now() - started,
      },
      'material package made',
    );
    return { ok: true, zip: { ...zip, filename: zipName(name, query.preset) } };
  }

  /**
   * Makes the files in a new scratch folder, one of at most `concurrentBuilds` at once; the
   * folder is removed if making fails or the client went away meanwhile.
   */
  private async build(
    signal: AbortSignal | undefined,
    make: (scratch: Scratch) => Promise<PackageFile[]>,
  ): Promise<{ scratch: Scratch; made: PackageFile[] }> {
    const leave = await this.gate.enter();
    try {
      signal?.throwIfAborted();
      const scratch = await this.files.openScratch();
      try {
        const made = await make(scratch);
        signal?.throwIfAborted();
        return { scratch, made };
      } catch (err) {
        await scratch.dispose();
        throw err;
      }
    } finally {
      leave();
    }
  }

  /** The ZIP of the files (stored: PNGs do not deflate), streamed from the scratch folder. */
  private async zipOf(files: PackageFile[], readme: Buffer, scratch: Scratch, owner: Owner) {
    const zip = new ZipFile();
    const mtime = new Date();
    const open = new Set<Readable>();
    for (const file of files) {
      zip.addReadStreamLazy(
        file.name,
        { size: file.bytes, mtime, mode: 0o100644, compress: false },
        (done) => {
          const stream = file.open();
          open.add(stream);
          stream.once('close', () => open.delete(stream));
          done(null, stream);
        },
      );
    }
    zip.addBuffer(readme, 'README.txt', { mtime, mode: 0o100644, compress: false });
    let total: number;
    try {
      total = await endZip(zip);
    } catch (err) {
      await scratch.dispose();
      throw err;
    }
    const stream = zip.outputStream as Readable;
    // yazl reports a file that cannot be read on the ZipFile: the download breaks off.
    zip.on('error', (err: unknown) => {
      this.log.warn({ err, user: owner.username }, 'material package download failed');
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      stream.destroy();
      for (const file of open) file.destroy();
      scratch.dispose().catch((err: unknown) => this.log.warn({ err }, 'scratch not removed'));
    };
    return { total, stream, close };
  }
}

/**
 * The tile the package is sized to. An HD image's is its own size; an LD image's is `requested`
 * when its format offers that size, else the first its format offers. Undefined when none fits.
 */
export function packageTile(image: ImageRecord, requested: string | undefined) {
  let label: HdSizeLabel | undefined;
  if (image.kind === 'hd') {
    const stored = image.metadata['size'];
    label = sizeLabelFromFactors(image.metadata) ?? (isHdSizeLabel(stored) ? stored : undefined);
  } else {
    const offered = hdSizesForImage(image.width, image.height);
    label = requested === undefined ? offered[0] : offered.find((size) => size === requested);
  }
  if (!label) return undefined;
  const { widthCm, heightCm } = hdPrintSize(label, image.width, image.height);
  return { label, widthCm, heightCm } satisfies PackageTile;
}

/** The file of every map, when all were made. */
function storedMaps(status: MaterialMapsStatus): Record<MaterialMap, string> | undefined {
  const names = {} as Record<MaterialMap, string>;
  for (const map of MATERIAL_MAPS) {
    const file = status.maps.find((m) => m.map === map);
    if (!file) return undefined;
    names[map] = file.filename;
  }
  return names;
}

/** waves_ld_material.zip, waves_ld_material_unreal.zip: the image, its gallery and the preset. */
export function zipName(name: string, preset: MaterialPreset): string {
  return preset === 'standard' ? `${name}_material.zip` : `${name}_material_${preset}.zip`;
}

/** At most `limit` holders at once; the others wait in order. */
class Gate {
  private inside = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async enter(): Promise<() => void> {
    if (this.inside >= this.limit) await new Promise<void>((go) => this.waiting.push(go));
    else this.inside++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.inside--;
    };
  }
}
