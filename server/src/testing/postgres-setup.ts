import { afterAll, beforeEach } from 'vitest';
import { dropFilePostgres } from './database.js';
import { dropAbandonedTestDatabases, postgresMissing } from './postgres.js';

// Setup of the vitest project that runs the store tier on PostgreSQL (vitest.config.ts): without
// a reachable PostgreSQL its tests are skipped with a notice, except in CI, where the run fails.
// Each test file's database is dropped when its tests are done, and any a killed run left.
if (await postgresMissing()) beforeEach((context) => context.skip());
else await dropAbandonedTestDatabases();
afterAll(dropFilePostgres);
