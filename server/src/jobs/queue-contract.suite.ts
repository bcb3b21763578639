import { afterEach, beforeEach, describe } from 'vitest';
import { describeOwnerPage } from './queue-contract-owner.suite.js';
import { describeRunnerProtocol } from './queue-contract-runner.suite.js';
import { QueueWorld, type JobQueueUnderTest } from './queue-contract-world.suite.js';

export type { JobQueueUnderTest, QueuePorts } from './queue-contract-world.suite.js';

/**
 * What every job queue must do, whatever keeps the jobs, through its two ports: the runner's
 * (JobQueue: enqueue with dedupe and the owner's limit, claim, a run's writes, leases, retry,
 * restart, watch) and the owners' (OwnerQueue: their jobs, cancel, move to top, pause). Every
 * time is given (a controlled clock): no case waits. An implementation's test calls this with a
 * factory of fresh, empty queues.
 */
export function describeJobQueueContract(
  implementation: string,
  make: () => Promise<JobQueueUnderTest>,
): void {
  describe(`JobQueue and OwnerQueue contract: ${implementation}`, () => {
    let world: QueueWorld;
    beforeEach(async () => {
      world = new QueueWorld(await make());
      await world.open();
    });
    afterEach(() => world.under.destroy());

    describeRunnerProtocol(() => world);
    describeOwnerPage(() => world);
  });
}
