import path from 'node:path';
import {
  API_ROUTES,
  adminRetentionRunSchema,
  adminRetentionSchema,
  errorText,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStore } from '../../files/file-store.js';
import { LocalFileStore } from '../../files/local-file-store.js';
import { AuditLog } from '../../services/audit.js';
import { AuthService } from '../../services/auth.js';
import { HdRetentionService } from '../../services/hd-retention.js';
import { MemoryLoginGuard } from '../../services/login-guard.js';
import { createAuditRepository } from '../../store/audit.js';
import { createHdRetentionRepository } from '../../store/hd-retention.js';
import { createSessionRepository } from '../../store/sessions.js';
import { createUserRepository } from '../../store/users.js';
import {
  createTestStore,
  passwordOf,
  silentLogger,
  type TestStore,
} from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import { DAY_MS, ownerId, placeDerivedFiles, placeHdImage } from '../../testing/retention.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

// The retention tab's API (issue 29, part 4) on a real SQLite database and real files: the dry
// run an admin sees is what "run now" removes, recorded on the audit trail with the admin's name.

let store: TestStore;
let files: FileStore;
let audit: AuditLog;

beforeEach(async () => {
  // root (the first user) is the admin; mia a member.
  store = await createTestStore(['root', 'mia']);
  files = new LocalFileStore(path.join(store.dataDir, 'files'), path.join(store.dataDir, 'tmp'));
  audit = new AuditLog(createAuditRepository(store.db), silentLogger);
});
afterEach(() => store.close());

async function appWith(days: number): Promise<FastifyInstance> {
  const retention = new HdRetentionService(
    createHdRetentionRepository(store.db),
    files,
    days,
    silentLogger,
    audit,
  );
  const auth = new AuthService(
    createUserRepository(store.db),
    createSessionRepository(store.db),
    new MemoryLoginGuard(),
  );
  return buildHttpApp(
    httpTestDependencies(store, {
      auth,
      admin: { ...httpTestDependencies(store).admin, retention },
    }),
  );
}

async function asRoot(app: FastifyInstance, method: 'GET' | 'POST', url: string) {
  const login = await app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    payload: { username: 'root', password: passwordOf('root') },
  });
  const cookie = `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)?.value}`;
  return app.inject({ method, url, headers: { cookie }, remoteAddress: '10.0.0.9' });
}

describe('the retention tab API', () => {
  it('shows the dry run with the space it frees, and "run now" removes exactly that', async () => {
    const mia = { id: await ownerId(store.db, 'mia'), username: 'mia' };
    const now = Date.now();
    await placeHdImage(store.db, files, mia, 'old.png', new Date(now - 40 * DAY_MS), 1000);
    await placeDerivedFiles(store.db, files, mia, 'old.png', { map: 200, print: 3000 });
    await placeHdImage(store.db, files, mia, 'new.png', new Date(now - DAY_MS), 5000);
    const app = await appWith(30);

    const shown = adminRetentionSchema.parse(
      (await asRoot(app, 'GET', API_ROUTES.adminRetention)).json(),
    );
    expect(shown).toMatchObject({
      days: 30,
      items: [{ owner: 'mia', filename: 'old.png', bytes: 4200 }],
      bytes: 4200,
      runs: [],
    });

    const ran = await asRoot(app, 'POST', API_ROUTES.adminRetentionRun);
    expect(ran.statusCode).toBe(200);
    expect(adminRetentionRunSchema.parse(ran.json()).items).toEqual(shown.items);
    expect(await files.stat('mia', 'hd', 'old.png')).toBeUndefined();
    expect(await files.stat('mia', 'hd', 'new.png')).toBeDefined();
    const [entry] = (await audit.list({ limit: 1, action: 'retention-run' })).entries;
    expect(entry).toMatchObject({
      actor: 'root',
      address: '10.0.0.9',
      details: { days: 30, removed: 1, bytes: 4200 },
    });

    // Nothing is left to remove; the daily runs are listed as they are recorded.
    await createHdRetentionRepository(store.db).claimDay(
      '2026-06-01',
      'p1',
      '2026-06-01T03:00:00.000Z',
      '2026-05-31T00:00:00.000Z',
    );
    const after = adminRetentionSchema.parse(
      (await asRoot(app, 'GET', API_ROUTES.adminRetention)).json(),
    );
    expect(after).toMatchObject({ items: [], bytes: 0 });
    expect(after.runs).toEqual([
      {
        day: '2026-06-01',
        startedAt: '2026-06-01T03:00:00.000Z',
        finishedAt: null,
        removed: null,
        bytes: null,
      },
    ]);
    await app.close();
  });

  it('refuses "run now" without a policy, and removes nothing', async () => {
    const mia = { id: await ownerId(store.db, 'mia'), username: 'mia' };
    await placeHdImage(store.db, files, mia, 'ancient.png', new Date(Date.now() - 3650 * DAY_MS));
    const app = await appWith(0);

    expect((await asRoot(app, 'GET', API_ROUTES.adminRetention)).json()).toMatchObject({
      days: 0,
      items: [],
    });
    const ran = await asRoot(app, 'POST', API_ROUTES.adminRetentionRun);
    expect(ran.statusCode).toBe(409);
    expect(ran.json()).toEqual({ error: errorText('RETENTION_OFF') });
    expect(await files.stat('mia', 'hd', 'ancient.png')).toBeDefined();
    await app.close();
  });
});
