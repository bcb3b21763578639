import type { InputImage } from '@tessera/contract';
import type { FileStore } from '../files/file-store.js';
import type { ImageRepository } from '../store/images.js';
import type { Owner } from '../owner.js';

/** The references library (/input): the images a user uploaded, with what was made from each. */
export class ReferenceService {
  constructor(
    private readonly images: ImageRepository,
    private readonly files: FileStore,
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
}
