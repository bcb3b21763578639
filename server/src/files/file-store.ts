import type { Readable } from 'node:stream';

/** The places an image file can live, per user. */
export type FileArea = 'input' | 'ld' | 'hd' | 'ld-thumbnails' | 'hd-thumbnails';

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
 * Image files, per user and area. Names are plain file names (the caller validates them with the
 * contract's rule); an implementation refuses anything else. Local disk now; S3 can replace it.
 */
export interface FileStore {
  /**
   * Writes a whole file so that no reader ever sees half of it and a crash never loses it once
   * written: to a temporary name, flushed to disk, then renamed over `name` (replacing it).
   */
  write(owner: string, area: FileArea, name: string, data: Buffer | Readable): Promise<StoredFile>;
  /** The file's bytes, or only those from `range.start` to `range.end` inclusive (HTTP ranges). */
  read(owner: string, area: FileArea, name: string, range?: ByteRange): Readable;
  readBuffer(owner: string, area: FileArea, name: string): Promise<Buffer>;
  stat(owner: string, area: FileArea, name: string): Promise<StoredFile | undefined>;
  /** The files of an area, leaving out the store's own temporary names. */
  list(owner: string, area: FileArea): Promise<StoredFile[]>;
  /**
   * The file's path on this machine, for tools that read files by path (engine workers, libvips,
   * sendFile). An object-store implementation would download to a cache and answer that path.
   */
  localPath(owner: string, area: FileArea, name: string): string;
  /** Takes the file out of sight; commit deletes it, rollback puts it back. Missing files are fine. */
  prepareRemoval(owner: string, area: FileArea, name: string): Promise<PendingRemoval>;
  /** After a crash: deletes the owner's half-written temporary files; how many there were. */
  clearTemporary(owner: string): Promise<number>;
  /** After a crash: the owner's removals that were prepared but neither committed nor rolled back. */
  interruptedRemovals(owner: string): Promise<InterruptedRemoval[]>;
}
