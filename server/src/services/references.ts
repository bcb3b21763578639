import { createHash } from 'node:crypto';
import type { InputImage } from '@tessera/contract';
import type { Logger } from 'pino';
import type { FileStore, ScratchFile } from '../files/file-store.js';
import type { ImageRepository } from '../store/images.js';
import type { ReferenceRepository } from '../store/references.js';
import type { Owner } from '../owner.js';

/** A checked upload waiting in a scratch file, with the SHA-256 of its bytes. */
export interface ReferenceUpload {
  file: ScratchFile;
  sha256: string;
  /** The name the reference gets if it is new (the caller's choice: readable and unique). */
  newName: string;
}

/** The reference a preview uses: the user's earlier one with the same bytes, or the upload. */
export interface KeptReference {
  filename: string;
  /** Stored by this upload rather than reused. */
  isNew: boolean;
}

/**
 * The references library (/input): the images a user uploaded, each stored once per user by its
 * content (issue 22, part 13), with what was made from each.
 */
export class ReferenceService {
  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
    private readonly hashes: ReferenceRepository,
    private readonly log: Logger,
  ) {}

  async list(owner: Owner): Promise<InputImage[]> {
    const [uploads, made] = await Promise.all([
      this.files.list(owner.username, 'input'),
      this.images.references(owner.id),
    ]);
    const byReference = new Map<string, string[]>();
    for (const { filename, reference } of made) {
      const list = byReference.get(reference) ?? [];
      list.push(filename);
      byReference.set(reference, list);
    }
    return uploads
      .sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime())
      .map((file) => ({
        filename: file.name,
        created_at: file.modifiedAt.toISOString(),
        images: byReference.get(file.name) ?? [],
      }));
  }

  /**
   * Keeps an upload as the owner's reference, or reuses the owner's reference with the same
   * bytes: the same file generated from again is stored once. Another user's identical upload
   * is theirs alone.
   */
  async keep(owner: Owner, upload: ReferenceUpload): Promise<KeptReference> {
    const known = await this.stillStored(owner, upload.sha256);
    if (known) return { filename: known, isNew: false };
    await this.hashUnrecorded(owner);
    const old = await this.stillStored(owner, upload.sha256);
    if (old) return { filename: old, isNew: false };
    const stored = await upload.file.putInto(owner.username, 'input', upload.newName);
    await this.hashes.record(
      owner.id,
      upload.newName,
      upload.sha256,
      stored.modifiedAt.toISOString(),
    );
    // Two identical uploads at once both stored theirs: the later one gives way.
    const winner = await this.hashes.findByHash(owner.id, upload.sha256);
    if (winner !== undefined && winner !== upload.newName) {
      await this.hashes.forget(owner.id, upload.newName);
      await (await this.files.prepareRemoval(owner.username, 'input', upload.newName)).commit();
      return { filename: winner, isNew: false };
    }
    return { filename: upload.newName, isNew: true };
  }

  /** The owner's recorded reference with these bytes, if its file is still there. */
  private async stillStored(owner: Owner, sha256: string): Promise<string | undefined> {
    for (;;) {
      const filename = await this.hashes.findByHash(owner.id, sha256);
      if (filename === undefined) return undefined;
      if (await this.files.stat(owner.username, 'input', filename)) return filename;
      // Its file went (removed by hand, say): the record goes too, and the next one is tried.
      await this.hashes.forget(owner.id, filename);
    }
  }

  /**
   * References stored before their hashes were recorded (an install from before migration 0017)
   * are hashed once, at their owner's next upload, streamed from the store.
   */
  private async hashUnrecorded(owner: Owner): Promise<void> {
    const [stored, recorded] = await Promise.all([
      this.files.list(owner.username, 'input'),
      this.hashes.hashedNames(owner.id),
    ]);
    const missing = stored.filter((file) => !recorded.has(file.name));
    for (const file of missing) {
      const sha256 = await this.hashOf(owner, file.name);
      // Gone meanwhile: an identical upload running beside this one gave way and removed it.
      if (sha256 === undefined) continue;
      await this.hashes.record(owner.id, file.name, sha256, file.modifiedAt.toISOString());
    }
    if (missing.length > 0)
      this.log.info({ user: owner.username, files: missing.length }, 'references hashed');
  }

  /** The SHA-256 of a stored reference, streamed; undefined when the file is no longer there. */
  private async hashOf(owner: Owner, filename: string): Promise<string | undefined> {
    const hash = createHash('sha256');
    try {
      for await (const chunk of this.files.read(owner.username, 'input', filename)) {
        hash.update(chunk as Buffer);
      }
    } catch (err) {
      if (await this.files.stat(owner.username, 'input', filename)) throw err;
      return undefined;
    }
    return hash.digest('hex');
  }
}
