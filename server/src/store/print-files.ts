import type { PrintSettings } from '@tessera/contract';
import type { Selectable } from 'kysely';
import type { Db } from './database.js';
import type { PrintFilesTable } from './schema.js';

/** A finished print file, as the print_files table keeps it (issue 26, part 1). */
export interface PrintFileRecord {
  ownerId: number;
  /** The HD image it was made from. */
  imageId: number;
  /** The public id of the job that made it. */
  jobId: string;
  settings: PrintSettings;
  filename: string;
  bytes: number;
  width: number;
  height: number;
  createdAt: string;
}

/** The print_files table: one method per query. */
export interface PrintFileRepository {
  /** The HD image's print files, newest first. */
  ofImage(imageId: number): Promise<PrintFileRecord[]>;
  /** The owner's print file of this name. */
  find(ownerId: number, filename: string): Promise<PrintFileRecord | undefined>;
  /**
   * Records a print file, in place of any of the same name (made again with the same settings).
   * Throws when its HD image is gone (the foreign key): the row would point at nothing.
   */
  record(file: PrintFileRecord): Promise<void>;
}

const COLUMNS = [
  'owner_id',
  'image_id',
  'job_id',
  'settings',
  'filename',
  'bytes',
  'width',
  'height',
  'created_at',
] as const;

/** A row as the repository reads it: the columns above, typed by the schema. */
type Row = Pick<Selectable<PrintFilesTable>, (typeof COLUMNS)[number]>;

function fromRow(row: Row): PrintFileRecord {
  return {
    ownerId: row.owner_id,
    imageId: row.image_id,
    jobId: row.job_id,
    settings: JSON.parse(row.settings) as PrintSettings,
    filename: row.filename,
    bytes: Number(row.bytes),
    width: row.width,
    height: row.height,
    createdAt: row.created_at,
  };
}

export function createPrintFileRepository(db: Db): PrintFileRepository {
  return {
    async ofImage(imageId) {
      const rows = await db
        .selectFrom('print_files')
        .select(COLUMNS)
        .where('image_id', '=', imageId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(fromRow);
    },

    async find(ownerId, filename) {
      const row = await db
        .selectFrom('print_files')
        .select(COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('filename', '=', filename)
        .executeTakeFirst();
      return row && fromRow(row);
    },

    async record(file) {
      await db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('print_files')
          .where('owner_id', '=', file.ownerId)
          .where('filename', '=', file.filename)
          .execute();
        await tx
          .insertInto('print_files')
          .values({
            owner_id: file.ownerId,
            image_id: file.imageId,
            job_id: file.jobId,
            settings: JSON.stringify(file.settings),
            filename: file.filename,
            bytes: file.bytes,
            width: file.width,
            height: file.height,
            created_at: file.createdAt,
          })
          .execute();
      });
    },
  };
}
