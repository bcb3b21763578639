// Test data for the HD, toast and queue tests: an HD job as the server lists it and an HD status
// message as the broker sends it, each with what a test names overriding the defaults.
import type { HdJob, HdStatusMessage } from '@tessera/contract';

export function hdJob(overrides: Partial<HdJob> = {}): HdJob {
  return {
    id: 'job-1',
    image: 'a.png',
    size: '30x30',
    status: 'queued',
    percent: 0,
    created_at: '2025-03-04T10:20:30.000Z',
    ...overrides,
  };
}

export function hdStatus(overrides: Partial<HdStatusMessage> = {}): HdStatusMessage {
  return { id: 'job-1', image: 'a.png', status: 'queued', percent: 0, ...overrides };
}
