import type { Owner } from '../owner.js';

/** The administrator a first start creates. */
export const FIRST_ADMIN = 'admin';

/**
 * Where a generated first password is kept until it is changed (files/initial-password-file.ts):
 * an operator may miss the one log line that shows it.
 */
export interface InitialPasswordNote {
  /** Where it is, for the operator. */
  readonly location: string;
  save(password: string): Promise<void>;
  read(): Promise<string | undefined>;
  remove(): Promise<void>;
}

export const noInitialPasswordNote: InitialPasswordNote = {
  location: '',
  save: () => Promise.resolve(),
  read: () => Promise.resolve(undefined),
  remove: () => Promise.resolve(),
};

/** What a first start made: the administrator and its password, given or generated and saved. */
export interface CreatedAdministrator {
  username: string;
  password: string;
  /** A generated password: where it is kept until changed. Unset: ADMIN_PASSWORD gave it. */
  savedTo?: string;
}

/** A removed user's files, for a removal that deletes their images (services/owner-files.ts). */
export interface OwnerFiles {
  /** Removes every file of the user; how many. */
  removeAll(username: string): Promise<number>;
}

export const noOwnerFiles: OwnerFiles = { removeAll: () => Promise.resolve(0) };

/** What a take-over moved (issue 29, part 2). */
export interface TakeOverCounts {
  ldImages: number;
  hdImages: number;
  /** Images renamed because the new owner had their name. */
  renamed: number;
  /** Files copied to the new owner. */
  files: number;
}

/** A retired user's images taken over by an admin (services/take-over.ts). */
export interface ImagesTakeOver {
  /** Copies the files, then re-owns every row and removes the account in one transaction. */
  run(from: Owner, to: Owner): Promise<TakeOverCounts>;
  /** Removes the files left under a name whose account is gone; how many. */
  leftovers(username: string): Promise<number>;
}

export const noImagesTakeOver: ImagesTakeOver = {
  run: () => Promise.resolve({ ldImages: 0, hdImages: 0, renamed: 0, files: 0 }),
  leftovers: () => Promise.resolve(0),
};
