import { describe, expect, it } from 'vitest';
import { silentLogger as silent } from '../testing/fixtures.js';
import { ReadinessProbe } from './readiness.js';

describe('ReadinessProbe', () => {
  it('counts a check that does not answer in time as failing, and aborts it', async () => {
    const probe = new ReadinessProbe(silent, 50);
    let aborted: Promise<void> | undefined;
    probe.require('database', () => Promise.resolve());
    probe.require('files', (signal) => {
      aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
      return new Promise<never>(() => undefined);
    });
    expect(await probe.check()).toEqual({ status: 'unavailable', failing: ['files'] });
    await aborted;
  });

  it('names every failing dependency, and says stopping once a stop began, whatever the checks', async () => {
    const probe = new ReadinessProbe(silent);
    probe.require('database', () => {
      throw new Error('ECONNREFUSED');
    });
    probe.require('broker', () => Promise.reject(new Error('down')));
    probe.require('files', () => undefined);
    expect(await probe.check()).toEqual({ status: 'unavailable', failing: ['database', 'broker'] });
    probe.require('database', () => undefined);
    probe.require('broker', () => undefined);
    expect(await probe.check()).toEqual({ status: 'ready' });
    probe.markStopping();
    expect(await probe.check()).toEqual({ status: 'stopping' });
  });
});
