import { webhookPayloadSchema } from '@tessera/contract';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../jobs/job.js';
import { HD_PARAMS, PREVIEW_PARAMS } from '../testing/job-params.js';
import { jobEvents } from './webhook-events.js';
import { nextWebhookAttempt, WEBHOOK_RETRY_WINDOW_MS } from './webhook-schedule.js';
import { newWebhookSecret, signedHeaders } from './webhook-signature.js';

// Issue 30, part 3: what a job's end tells, when a failed delivery goes again, and the signature.

const NOW = new Date('2026-03-01T10:00:00.000Z');
const base = {
  id: 7,
  publicId: 'job-7',
  ownerId: 1,
  percent: 100,
  error: null,
  attempts: 1,
  maxAttempts: 3,
  runAfter: NOW.toISOString(),
  dedupeKey: null,
  createdAt: NOW.toISOString(),
  queueOrder: 0,
  remotePrompt: null,
};

function job(spec: Partial<JobRecord> & Pick<JobRecord, 'kind' | 'params' | 'status'>): JobRecord {
  return { ...base, output: null, ...spec } as JobRecord;
}

const told = (record: JobRecord) =>
  jobEvents(record, NOW).map((event) => ({
    ...event,
    body: webhookPayloadSchema.parse(JSON.parse(event.body)),
  }));

describe('the events of a job', () => {
  it('tell a preview, a series of faces and a failure with the names the API knows', () => {
    expect(
      told(
        job({ kind: 'preview', params: PREVIEW_PARAMS, status: 'finished', output: 'a-1f.png' }),
      ),
    ).toEqual([
      {
        type: 'preview.finished',
        ownerId: 1,
        messageId: 'msg_preview.finished_job-7',
        body: {
          type: 'preview.finished',
          timestamp: NOW.toISOString(),
          data: { user: 'ann', jobId: 'job-7', filename: 'a-1f.png' },
        },
      },
    ]);
    const series = job({
      kind: 'preview',
      params: { ...PREVIEW_PARAMS, faces: 3 },
      status: 'finished',
      output: 'oak-9a-f1.png',
    });
    expect(told(series)[0]?.body).toMatchObject({
      type: 'series.finished',
      data: {
        seriesId: 'oak-9a',
        faces: 3,
        filenames: ['oak-9a-f1.png', 'oak-9a-f2.png', 'oak-9a-f3.png'],
      },
    });
    const failed = job({ kind: 'preview', params: PREVIEW_PARAMS, status: 'error', error: 'No' });
    expect(told(failed)[0]?.body).toMatchObject({
      type: 'preview.failed',
      data: { faces: 1, error: 'No' },
    });
  });

  it('tell HD ends and ready maps, and nothing of a retry, a cancel or a print file', () => {
    const hd = job({ kind: 'hd', params: HD_PARAMS, status: 'finished', output: 'tile_30x30.png' });
    expect(told(hd)[0]?.body).toMatchObject({
      type: 'hd.finished',
      data: { image: 'tile.png', size: '30x30', filename: 'tile_30x30.png' },
    });
    expect(told({ ...hd, status: 'error', error: 'gone' } as JobRecord)[0]?.type).toBe('hd.failed');
    const maps = job({
      kind: 'maps',
      params: { owner: PREVIEW_PARAMS.owner, kind: 'ld', image: 'a.png' },
      status: 'finished',
    });
    expect(told(maps)[0]?.body).toMatchObject({
      type: 'material-maps.ready',
      data: { kind: 'ld', image: 'a.png' },
    });
    expect(jobEvents({ ...maps, status: 'error' } as JobRecord, NOW)).toEqual([]);
    expect(jobEvents({ ...hd, status: 'queued' } as JobRecord, NOW)).toEqual([]);
    expect(jobEvents({ ...hd, status: 'cancelled' } as JobRecord, NOW)).toEqual([]);
  });
});

describe('the retry schedule', () => {
  it('backs off 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h, and gives up past a day', () => {
    const start = NOW.getTime();
    let now = start;
    const gaps: number[] = [];
    for (let attempts = 1; ; attempts += 1) {
      const next = nextWebhookAttempt(NOW, attempts, new Date(now));
      if (!next) break;
      gaps.push(next.getTime() - now);
      now = next.getTime();
    }
    expect(gaps.map((ms) => ms / 1000)).toEqual([30, 120, 600, 3600, 10800, 21600, 43200]);
    expect(now - start).toBeLessThanOrEqual(WEBHOOK_RETRY_WINDOW_MS);
  });
});

describe('the signature', () => {
  it('is what the Standard Webhooks library verifies', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'webhook.test', timestamp: 'now', data: {} });
    const headers = signedHeaders([secret], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('carries one signature per secret, each of which the library accepts', () => {
    const [current, previous, other] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ type: 'webhook.test', timestamp: 'now', data: {} });
    const headers = signedHeaders([current, previous], 'msg_2', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
  });
});
