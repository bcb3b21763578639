import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FILE_AREAS } from '../files/places.js';

/** A refusal or a failed check, with a message for the operator. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The backup's layout inside its folder. */
export const BACKUP_DATABASE = 'tessera.sqlite';
export const BACKUP_FILES = 'files';
export const MANIFEST = 'manifest.json';
const FORMAT = 'tessera-backup';
const FORMAT_VERSION = 1;

export interface ManifestFile {
  /** `<user>/<area>/<name>`, below the backup's `files` folder. */
  path: string;
  bytes: number;
  sha256: string;
}

/** A row the backup left out: its file was removed while the backup ran (see backup-snapshot.ts). */
export interface LeftOutRow {
  table: string;
  owner: string;
  filename: string;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  /** The version of Tessera that made it. */
  tesseraVersion: string;
  createdAt: string;
  /** What was copied, and how: the database and the files, each with its method. */
  source: {
    database: { kind: 'sqlite' | 'postgresql'; method: string };
    files: { kind: 'local' | 's3'; method: string };
  };
  /** The last database migration applied: a Tessera that does not know it cannot restore it. */
  schema: { migration: string; migrations: number };
  database: { file: typeof BACKUP_DATABASE; bytes: number; sha256: string };
  /** Rows per table, as restored. */
  rows: Record<string, number>;
  files: ManifestFile[];
  leftOut: LeftOutRow[];
}

export type ManifestContent = Omit<Manifest, 'format' | 'formatVersion' | 'tesseraVersion'>;

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** The version in the server's package.json (the same path from src/ and from dist/). */
export function tesseraVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * Every stored file below `filesRoot` (`<user>/<area>/<name>`), hashed, in a stable order.
 * Only the store's own names: hidden temporary and removal files are not part of a backup.
 */
export async function hashFiles(filesRoot: string, owners: readonly string[]) {
  const files: ManifestFile[] = [];
  for (const owner of [...owners].sort()) {
    for (const area of FILE_AREAS) {
      const dir = path.join(filesRoot, owner, area);
      const names = await fsp.readdir(dir).catch(() => [] as string[]);
      for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
        const file = path.join(dir, name);
        const { size } = await fsp.stat(file);
        files.push({
          path: `${owner}/${area}/${name}`,
          bytes: size,
          sha256: await sha256OfFile(file),
        });
      }
    }
  }
  return files;
}

/** Written last, by a rename: a folder with a manifest holds a whole backup. */
export async function writeManifest(dir: string, content: ManifestContent): Promise<Manifest> {
  const manifest: Manifest = {
    format: FORMAT,
    formatVersion: FORMAT_VERSION,
    tesseraVersion: tesseraVersion(),
    ...content,
  };
  const temp = path.join(dir, `.${MANIFEST}.tmp`);
  await fsp.writeFile(temp, `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  await fsp.rename(temp, path.join(dir, MANIFEST));
  return manifest;
}

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST);
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    throw new BackupError(
      `${file} not found: ${dir} is not a Tessera backup, or its backup did not finish`,
    );
  }
  const manifest = JSON.parse(text) as Partial<Manifest>;
  if (manifest.format !== FORMAT || manifest.formatVersion !== FORMAT_VERSION) {
    throw new BackupError(
      `${file} is not a Tessera backup manifest of format ${FORMAT_VERSION} (made by a newer Tessera?)`,
    );
  }
  return manifest as Manifest;
}

/** The backup's files (and database) whose bytes are not those the manifest names. */
export async function damagedEntries(
  dir: string,
  manifest: { database?: Manifest['database']; files: readonly ManifestFile[] },
): Promise<string[]> {
  const entries = [
    ...(manifest.database
      ? [{ ...manifest.database, path: BACKUP_DATABASE, file: path.join(dir, BACKUP_DATABASE) }]
      : []),
    ...manifest.files.map((f) => ({ ...f, file: path.join(dir, BACKUP_FILES, f.path) })),
  ];
  const damaged: string[] = [];
  for (const entry of entries) {
    const actual = await sha256OfFile(entry.file).catch(() => 'missing');
    if (actual === 'missing') damaged.push(`${entry.path} (missing)`);
    else if (actual !== entry.sha256) damaged.push(`${entry.path} (bytes differ)`);
  }
  return damaged;
}
