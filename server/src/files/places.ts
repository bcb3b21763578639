import { isSafeFileName, isValidUsername } from '@tessera/contract';
import type { FileArea } from './file-store.js';

/** Every area a user's files live in. */
export const FILE_AREAS = [
  'input',
  'ld',
  'hd',
  'ld-thumbnails',
  'hd-thumbnails',
  'maps',
  'print',
] as const satisfies readonly FileArea[];

/** Temporary and to-be-removed files start with this, which no valid file name may. */
export const HIDDEN_PREFIX = '.';
/** A removal's hidden name: `.removing-<random>-<name>`. */
export const REMOVING = /^\.removing-[0-9a-f]{12}-(.+)$/;

export class UnsafePathError extends Error {
  override name = 'UnsafePathError';
}

/**
 * The owner and area as the two segments of a place (a folder, a key prefix), checked: every
 * store refuses the same names, so none can reach outside the owner's area.
 */
export function checkedArea(owner: string, area: FileArea): [owner: string, area: FileArea] {
  checkedOwner(owner);
  if (!(FILE_AREAS as readonly string[]).includes(area))
    throw new UnsafePathError(`Invalid area: ${area}`);
  return [owner, area];
}

/** An owner (a username), checked: the first segment of every place of theirs. */
export function checkedOwner(owner: string): string {
  // '.' and '..' match the username rule but would name the root or its parent.
  if (!isValidUsername(owner) || owner === '.' || owner === '..') {
    throw new UnsafePathError(`Invalid owner: ${owner}`);
  }
  return owner;
}

/** A file name, checked: a plain name, never a path or one of the store's hidden names. */
export function checkedName(name: string): string {
  if (!isSafeFileName(name)) throw new UnsafePathError(`Invalid file name: ${name}`);
  return name;
}
