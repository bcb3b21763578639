import type { WebhookPayload } from '@tessera/contract';
import type { JobRecord } from '../jobs/job.js';
import { previewOutputs } from './preview-series.js';
import type { WebhookEventDraft } from './webhook-ports.js';

/**
 * The webhook events a job's end makes (issue 30, part 3), built from the job alone so that the
 * store records them in the same transaction as the end (an outbox: no event is lost to a crash
 * and none is told of a job that did not end). A preview makes `preview.finished`, a series of
 * faces `series.finished`; either failing makes `preview.failed`. Maps tell only when ready.
 * The message id follows from the job and the type: an event is one message however often sent.
 */
export function jobEvents(job: JobRecord, now: Date): WebhookEventDraft[] {
  const payload = payloadOf(job, now.toISOString());
  if (!payload) return [];
  return [
    {
      type: payload.type,
      ownerId: job.ownerId,
      messageId: `msg_${payload.type}_${job.publicId}`,
      body: JSON.stringify(payload),
    },
  ];
}

type JobPayload = Exclude<WebhookPayload, { type: 'webhook.test' }>;

function payloadOf(job: JobRecord, timestamp: string): JobPayload | undefined {
  const ended = job.status === 'finished' ? 'finished' : job.status === 'error' ? 'failed' : null;
  if (!ended) return undefined;
  const base = { user: job.params.owner.username, jobId: job.publicId };
  const error = job.error ?? '';
  switch (job.kind) {
    case 'preview': {
      const faces = job.params.faces ?? 1;
      if (ended === 'failed') {
        return { type: 'preview.failed', timestamp, data: { ...base, faces, error } };
      }
      if (!job.output) return undefined;
      const outputs = previewOutputs(job.output, faces);
      const series = outputs[0]?.series;
      if (!series) {
        return { type: 'preview.finished', timestamp, data: { ...base, filename: job.output } };
      }
      return {
        type: 'series.finished',
        timestamp,
        data: {
          ...base,
          seriesId: series.seriesId,
          faces,
          filenames: outputs.map((output) => output.filename),
        },
      };
    }
    case 'hd': {
      const { image, size } = job.params;
      if (ended === 'failed') {
        return { type: 'hd.failed', timestamp, data: { ...base, image, size, error } };
      }
      if (!job.output) return undefined;
      return {
        type: 'hd.finished',
        timestamp,
        data: { ...base, image, size, filename: job.output },
      };
    }
    case 'maps':
      if (ended === 'failed') return undefined;
      return {
        type: 'material-maps.ready',
        timestamp,
        data: { ...base, kind: job.params.kind, image: job.params.image },
      };
    case 'print':
      return undefined;
  }
}
