import { openDatabase } from '../../server/src/store/database.js';
import { createImageRepository } from '../../server/src/store/images.js';
import { createUserRepository } from '../../server/src/store/users.js';
import type { RunningServer } from './server.js';

/**
 * Image rows made on given days, written through the server's own image repository into its
 * SQLite file (WAL lets the running server read on), as generation records them. For the usage
 * charts (issue 29, part 6), which count rows: no files are written.
 */
export async function seedImageRows(
  server: RunningServer,
  username: string,
  rows: readonly { kind: 'ld' | 'hd'; madeAt: Date }[],
): Promise<void> {
  const db = await openDatabase({ dataDir: server.dataDir });
  try {
    const owner = await createUserRepository(db).findByUsername(username);
    if (!owner) throw new Error(`no user ${username}`);
    const images = createImageRepository(db);
    for (const [i, row] of rows.entries()) {
      await images.insert({
        ownerId: owner.id,
        kind: row.kind,
        filename: `usage-${row.kind}-${row.madeAt.getTime()}-${i}.png`,
        sourceImageId: null,
        width: 64,
        height: 64,
        bytes: 100,
        metadata: {},
        createdAt: row.madeAt.toISOString(),
      });
    }
  } finally {
    await db.destroy();
  }
}
