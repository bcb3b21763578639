/**
 * The colour profiles a print file can be made in (issue 26, part 1): sRGB, always, and the ICC
 * output profiles the operator puts in the profiles folder (PRINT_PROFILES_DIR), each listed by
 * its own description and colour space, read from its header (the `icc` parser).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SRGB_PROFILE_ID, type PrintProfile } from '@tessera/contract';
import { parse } from 'icc';
import type { Logger } from 'pino';
import type { PrintSettings } from './settings.js';

/** A profile of the list, and where its file is (none for sRGB: libvips' own). */
export interface InstalledProfile extends PrintProfile {
  path?: string;
}

/** The port the print-files service reads the profiles through. */
export interface PrintProfiles {
  /** sRGB first, then the folder's profiles by name. */
  list(): Promise<InstalledProfile[]>;
  /** The profile of this id (sRGB's, or a file name of the folder); undefined if none. */
  find(id: string): Promise<InstalledProfile | undefined>;
}

export const SRGB_PROFILE: InstalledProfile = {
  id: SRGB_PROFILE_ID,
  name: 'sRGB IEC61966-2.1',
  colourSpace: 'rgb',
};

const EXTENSIONS = new Set(['.icc', '.icm']);
/** A real output profile is a few megabytes at most; anything larger is not read. */
const MAX_PROFILE_BYTES = 32 * 2 ** 20;
/** Classes a profile converts into: printers, displays, colour spaces (not links, scanners). */
const OUTPUT_CLASSES = new Set(['Printer', 'Monitor', 'Space']);
const COLOUR_SPACES: Readonly<Record<string, PrintProfile['colourSpace']>> = {
  RGB: 'rgb',
  CMYK: 'cmyk',
};

/** The profiles folder of the settings, read anew at each call (an operator adds files live). */
export class FolderPrintProfiles implements PrintProfiles {
  constructor(
    private readonly settings: PrintSettings,
    private readonly log?: Logger,
  ) {}

  async list(): Promise<InstalledProfile[]> {
    const folder = this.settings.printProfilesDir;
    let names: string[];
    try {
      names = await fs.readdir(folder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return [SRGB_PROFILE];
    }
    const found: InstalledProfile[] = [];
    for (const name of names.sort()) {
      if (!EXTENSIONS.has(path.extname(name).toLowerCase()) || name.startsWith('.')) continue;
      const profile = await readProfile(path.join(folder, name)).catch((err: unknown) => {
        this.log?.warn({ err, profile: name }, 'print profile left out: not a readable ICC file');
        return undefined;
      });
      if (profile) found.push(profile);
      else
        this.log?.warn(
          { profile: name },
          'print profile left out: not an RGB or CMYK output profile',
        );
    }
    found.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return [SRGB_PROFILE, ...found];
  }

  async find(id: string): Promise<InstalledProfile | undefined> {
    if (id === SRGB_PROFILE_ID) return SRGB_PROFILE;
    return (await this.list()).find((profile) => profile.id === id);
  }
}

/** One file's entry, or undefined when it is no RGB or CMYK profile a print can be made in. */
async function readProfile(file: string): Promise<InstalledProfile | undefined> {
  const { size } = await fs.stat(file);
  if (size > MAX_PROFILE_BYTES) return undefined;
  const header = parse(await fs.readFile(file));
  const colourSpace = COLOUR_SPACES[header.colorSpace ?? ''];
  if (!colourSpace || !OUTPUT_CLASSES.has(header.deviceClass ?? '')) return undefined;
  const id = path.basename(file);
  const name = header.description?.replace(/\0+$/, '').trim() || id.replace(/\.ic[cm]$/i, '');
  return { id, name, colourSpace, path: file };
}
