import { describe, expect, it } from 'vitest';
import { runEntry } from '../testing/processes.js';

// Issue 23, part 10: no error that no code caught ends a process without a log line; a rejection
// leaves it running, an uncaught exception exits it for its supervisor (docs/reliability.md).
describe('the process guards', () => {
  it('log an unhandled rejection and keep the process running', async () => {
    const result = await runEntry('testing/guarded-process.ts', ['reject'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/"level":50.*nobody catches this.*unhandled promise rejection/);
    expect(result.stdout).toContain('still running');
  }, 30_000);

  it('log an uncaught exception and exit with 1', async () => {
    const result = await runEntry('testing/guarded-process.ts', ['throw'], {});
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/"level":60.*thrown from a timer.*uncaught exception: exiting/);
  }, 30_000);
});
