import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests import the contract from source, so a unit run needs no build first.
const contractSource = fileURLToPath(new URL('./contract/src/index.ts', import.meta.url));
const alias = { '@tessera/contract': contractSource };

export default defineConfig({
  test: {
    reporters: ['default', './tools/summary-reporter.ts'],
    projects: [
      { resolve: { alias }, test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: { name: 'server', include: ['server/src/**/*.test.ts'], testTimeout: 20_000 },
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
          // One browser and one server at a time: these machines have two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
