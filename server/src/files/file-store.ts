import type { Readable } from 'node:stream';

/** The places an image file can live, per user. */
export type FileArea =
  | 'input'
  | 'ld'
  | 'hd'
  | 'ld-thumbnails'
  | 'hd-thumbnails'
  | 'maps'
  /** Print files of HD images (issue 26, part 1). */
  | 'print';

export interface StoredFile {
  name: string;
  bytes: number;
  modifiedAt: Date;
}

/** Byte offsets, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A removal that can still be undone: the file is out of sight but not yet gone. */
export interface PendingRemoval {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** A removal a crash interrupted, found at start: the caller decides which way it goes. */
export interface InterruptedRemoval extends PendingRemoval {
  area: FileArea;
  name: string;
}

/**
 * A file of a scratch folder, for a tool that writes or reads by path (an engine, libvips, the
 * upload check): the only files of this machine a caller ever sees.
 */
export interface ScratchFile {
  /** The local path to hand the tool. Nothing is there until the tool writes it. */
  readonly path: string;
  readBuffer(): Promise<Buffer>;
  /**
   * Writes the file from `source` as its bytes arrive (an upload never sits in memory whole);
   * the bytes it then holds. A failing source or disk rejects, with the file left incomplete.
   */
  write(source: AsyncIterable<Uint8Array>): Promise<number>;
  /**
   * Puts the file into the store under `name` as `write` does (whole, durable, replacing), and
   * takes it out of the scratch folder: a local store moves it, an object store uploads it.
   */
  putInto(owner: string, area: FileArea, name: string): Promise<StoredFile>;
}

/**
 * A private folder of this machine for one piece of work, for tools that only read and write
 * files by path. `dispose` removes it and everything in it; whatever a crash left is removed by
 * `clearScratch` at the next start. An object store keeps its scratch on local disk too: it
 * downloads what `copyOf` asks for and uploads what `putInto` puts.
 */
export interface Scratch {
  /** A new name in the folder, ending in `.extension` (tools encode by it); nothing written yet. */
  newFile(extension?: string): ScratchFile;
  /**
   * A local path holding the stored file's bytes as they are now, for a tool that reads by
   * path; later writes or removals of the stored file do not change it. Read it only: it may
   * share its bytes with the stored file. Rejects when the file is not stored.
   */
  copyOf(owner: string, area: FileArea, name: string): Promise<string>;
  /** Removes the folder and everything in it. */
  dispose(): Promise<void>;
}

/**
 * Image files, per user and area. Names are plain file names (the caller validates them with the
 * contract's rule); an implementation refuses anything else, and no caller sees where a stored
 * file lives: bytes come in and go out as streams, and a tool that needs a local file gets one
 * in a scratch folder. Local disk (`local-file-store.ts`) or an S3 bucket (`s3-file-store.ts`,
 * FILES_URL): the `S3:` notes say how, and `file-store-contract.suite.ts` is what both pass.
 */
export interface FileStore {
  /**
   * Writes a whole file so that no reader ever sees half of it and a crash never loses it once
   * written: to a temporary name, flushed to disk, then renamed over `name` (replacing it).
   * S3: a (multipart) upload, which shows the object only once complete.
   */
  write(owner: string, area: FileArea, name: string, data: Buffer | Readable): Promise<StoredFile>;
  /**
   * The file's bytes, or only those from `range.start` to `range.end` inclusive (HTTP ranges).
   * A missing file is an error of the stream. S3: GetObject with a Range header.
   */
  read(owner: string, area: FileArea, name: string, range?: ByteRange): Readable;
  readBuffer(owner: string, area: FileArea, name: string): Promise<Buffer>;
  /** S3: HeadObject. */
  stat(owner: string, area: FileArea, name: string): Promise<StoredFile | undefined>;
  /** The files of an area, without the store's own hidden names. S3: ListObjectsV2 by prefix. */
  list(owner: string, area: FileArea): Promise<StoredFile[]>;
  /**
   * Takes the file out of sight; commit deletes it, rollback puts it back. Missing files are fine.
   * S3: copies the object to a hidden key and deletes it (rollback copies it back).
   */
  prepareRemoval(owner: string, area: FileArea, name: string): Promise<PendingRemoval>;
  /**
   * After a crash: deletes the owner's half-written temporary files; how many there were.
   * S3: aborts the owner's unfinished multipart uploads.
   */
  clearTemporary(owner: string): Promise<number>;
  /**
   * After a crash: the owner's removals that were prepared but neither committed nor rolled
   * back. S3: the owner's hidden removal keys.
   */
  interruptedRemovals(owner: string): Promise<InterruptedRemoval[]>;
  /** A new scratch folder; the caller disposes of it (see {@link withScratch}). */
  openScratch(): Promise<Scratch>;
  /**
   * At start, before any work: removes the scratch folders a crash left (they are this
   * process's own, and worthless once it died); how many there were.
   */
  clearScratch(): Promise<number>;
  /**
   * Throws when the store cannot be reached now (the readiness check). Local: the folder (its
   * parent before the first file) is readable and writable. S3: HeadBucket, given up when
   * `signal` aborts (an unanswered probe must not leave requests piling up).
   */
  check(signal?: AbortSignal): Promise<void>;
}

/** Runs `work` with a scratch folder that is removed when it ends, whichever way it ends. */
export async function withScratch<T>(
  files: FileStore,
  work: (scratch: Scratch) => Promise<T>,
): Promise<T> {
  const scratch = await files.openScratch();
  try {
    return await work(scratch);
  } finally {
    await scratch.dispose();
  }
}
