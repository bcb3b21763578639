import path from 'node:path';
import { API_ROUTES } from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import type { HttpDependencies } from '../http/app.js';
import { SESSION_COOKIE } from '../http/session.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { THEMES_DIR } from '../runtime/paths.js';
import { passwordOf, silentLogger, type TestStore } from './fixtures.js';
import { strictFake } from './strict-fake.js';

/**
 * What buildHttpApp takes, for a route test on `store`: its users and sessions, its data folder's
 * files, and every service a strict fake, so a call the test did not plan fails it. A test gives
 * the service its routes reach, and whatever else it looks at, in `overrides`.
 */
export function httpTestDependencies(
  store: TestStore,
  overrides: Partial<HttpDependencies> = {},
): HttpDependencies {
  return {
    logger: silentLogger,
    auth: store.auth,
    title: 'Tessera Test',
    theme: 'default',
    brokerUrlFor: () => 'ws://localhost/mqtt',
    brokerProtocolVersion: 4,
    healthCheck: () => Promise.resolve(),
    previewEngine: 'builtin',
    themesDir: THEMES_DIR,
    files: new LocalFileStore(path.join(store.dataDir, 'files')),
    generation: strictFake('generation'),
    hdQueue: strictFake('hdQueue'),
    references: strictFake('references'),
    zips: strictFake('zips'),
    materialMaps: strictFake('materialMaps'),
    materialPackages: strictFake('materialPackages'),
    printFiles: strictFake('printFiles'),
    referenceAnalysis: strictFake('referenceAnalysis'),
    apiTokens: store.apiTokens,
    scriptCommands: strictFake('scriptCommands'),
    scriptChanges: strictFake('scriptChanges'),
    hdOrders: strictFake('hdOrders'),
    webhooks: strictFake('webhooks'),
    admin: {
      users: strictFake('users'),
      audit: strictFake('audit'),
      retention: strictFake('retention'),
      usage: strictFake('usage'),
      quotas: strictFake('quotas'),
    },
    ...overrides,
  };
}

/**
 * Signs `username` in through the app's own login (their fixture password) and gives the Cookie
 * header value of the session: `tessera_session=…`.
 */
export async function sessionCookie(
  app: FastifyInstance,
  username: string,
  password = passwordOf(username),
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    payload: { username, password },
  });
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`signing ${username} in failed: ${res.statusCode} ${res.body}`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}
