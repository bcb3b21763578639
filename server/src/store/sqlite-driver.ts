import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The Node.js major version this process runs on. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * The SQLite driver for this Node.js: better-sqlite3 13 (Node-API, its binaries in the npm
 * package) from Node 22 on; 12 (compiled at install) on Node 20, which 13 crashes on. 12 cannot
 * serve Node 24: its objects' finalizers abort the process there (Assertion failed: (env) !=
 * nullptr in RemoveEnvironmentCleanupHook). Everything that opens SQLite takes it from here.
 */
export const SQLite = require(
  NODE_MAJOR >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20',
) as typeof BetterSqlite3;
