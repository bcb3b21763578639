import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests import the contract from source, so a unit run needs no build first.
const contractSource = fileURLToPath(new URL('./contract/src/index.ts', import.meta.url));
const openApiSource = fileURLToPath(new URL('./contract/src/openapi.ts', import.meta.url));
// The subpath first: an alias also matches what begins with its name and a '/'.
const alias = { '@tessera/contract/openapi': openApiSource, '@tessera/contract': contractSource };
// expect.poll waits 1 s by default: too short for a broker round trip or a job on a loaded
// two-core machine. A poll that passes returns at once, so only a failure waits longer.
const expect = { poll: { timeout: 5_000 } };

export default defineConfig({
  test: {
    reporters: ['default', './tools/summary-reporter.ts'],
    projects: [
      { resolve: { alias }, test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          // tools/: the scripts npm runs around the server (build-current.mjs).
          include: ['server/src/**/*.test.ts', 'tools/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'server/src/**/*.int.test.ts'],
          testTimeout: 20_000,
          expect,
        },
      },
      // The store's repositories on a real database, a tier of its own: npm run test:int.
      {
        resolve: { alias },
        test: {
          name: 'store',
          include: ['server/src/**/*.int.test.ts'],
          testTimeout: 20_000,
          expect,
        },
      },
      // The same tests on PostgreSQL (TEST_DATABASE_URL; each test creates and drops a database),
      // but for the SQLite file's own migration and query plan tests.
      {
        resolve: { alias },
        test: {
          name: 'store-postgres',
          include: ['server/src/**/*.int.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'server/src/store/image-search.int.test.ts',
            'server/src/store/tag-order.int.test.ts',
          ],
          env: { TESSERA_TEST_STORE: 'postgres' },
          setupFiles: ['server/src/testing/postgres-setup.ts'],
          testTimeout: 20_000,
          expect,
        },
      },
      {
        resolve: { alias },
        test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'] },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect,
          // One browser and one server at a time: these machines have two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
