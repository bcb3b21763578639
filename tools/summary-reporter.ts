import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the closing lines name. */
const SLOWEST_SHOWN = 15;

/**
 * Prints plain closing lines after Vitest's own summary: the slowest test files with their
 * durations (where a CI run's time goes, against its 90-minute limit), then
 * `Tests: N passed, N failed, N skipped`, so any CI that reads a run's last lines can count the
 * tests.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const slowest = testModules
      .map((module) => ({
        name: `${module.project.name} ${module.moduleId.replace(`${process.cwd()}/`, '')}`,
        ms: module.diagnostic().duration,
      }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (slowest.length > 1) {
      process.stdout.write('\nSlowest test files:\n');
      for (const { name, ms } of slowest)
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}\n`);
    }
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
