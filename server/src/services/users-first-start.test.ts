import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditRepository } from '../store/audit.js';
import { openDatabase, type Db } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { silentLogger, tempDir } from '../testing/fixtures.js';
import { AuditLog } from './audit.js';
import { UserService } from './users.js';

// The first administrator, made by a first start, is on the audit trail (issue 29, part 5): the
// trail's first row says who made the account every later change comes from.

let data: ReturnType<typeof tempDir>;
let db: Db;
beforeEach(async () => {
  data = tempDir();
  db = await openDatabase({ dataDir: data.dir });
});
afterEach(async () => {
  await db.destroy();
  data.remove();
});

describe('the first start', () => {
  it('records the first administrator, by the first start, and how its password was set', async () => {
    const audit = new AuditLog(createAuditRepository(db), silentLogger);
    const users = new UserService(createUserRepository(db), undefined, undefined, audit);

    await users.ensureAdministrator('given-password');
    // A second start finds users: nothing more is made or recorded.
    await users.ensureAdministrator('given-password');

    const { entries } = await audit.list({ limit: 10 });
    expect(entries).toMatchObject([
      {
        actor: 'first-start',
        action: 'user-created',
        target: 'admin',
        details: { role: 'admin', password: 'ADMIN_PASSWORD' },
        address: null,
      },
    ]);
  });
});
