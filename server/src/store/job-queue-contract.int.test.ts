import { describeJobQueueContract } from '../jobs/queue-contract.suite.js';
import { addOwner, freshDatabase, testStoreDialect } from '../testing/database.js';
import { createJobQueue } from './jobs.js';

// The queue contract on the jobs table: on SQLite (vitest project `store`) and on PostgreSQL
// (`store-postgres`). Each process of the contract is a queue of its own on the same database.
describeJobQueueContract(`the jobs table on ${testStoreDialect}`, async () => {
  const store = await freshDatabase();
  return {
    process(holder, ms) {
      const queue = createJobQueue(store.db, { lease: { holder, ms } });
      return { jobs: queue, owner: queue };
    },
    addOwner: (name) => addOwner(store.db, name),
    destroy: () => store.close(),
  };
});
