import { REFERENCE_WARNING_TEXTS, type ReferenceFigures } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../testing/fixtures.js';
import {
  ReferenceAnalysisService,
  ReferenceChecksBusyError,
  type ReferenceAnalyzer,
  type ReferenceMeasure,
} from './reference-analysis.js';

// The service's own rules: the contract's texts on the analyzer's codes, and how many checks run
// at once. The analyzer here is one whose checks end when the test says.

const FIGURES = { segments: 0 } as unknown as ReferenceFigures;
const alice = { id: 1, username: 'alice' };
const bob = { id: 2, username: 'bob' };

/** An analyzer whose each check waits until `finish()`; it counts the checks running. */
function heldAnalyzer() {
  const waiting: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const analyzer: ReferenceAnalyzer = {
    analyse: () =>
      new Promise<ReferenceMeasure>((resolve) => {
        running++;
        most = Math.max(most, running);
        waiting.push(() => {
          running--;
          resolve({ width: 8, height: 8, figures: FIGURES, warnings: ['perspective'] });
        });
      }),
    removeLighting: () => Promise.resolve(new Uint8Array([1, 2, 3])),
  };
  return {
    analyzer,
    started: () => waiting.length,
    finishOne: () => waiting.shift()?.(),
    most: () => most,
  };
}

/** Lets the promise callbacks queued so far run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ReferenceAnalysisService', () => {
  it("answers the analyzer's codes with the contract's texts", async () => {
    const held = heldAnalyzer();
    const service = new ReferenceAnalysisService(held.analyzer, silentLogger);
    const answer = service.analyse(alice, '/scratch/a.png', new AbortController().signal);
    await settle();
    held.finishOne();
    expect(await answer).toEqual({
      width: 8,
      height: 8,
      warnings: [{ code: 'perspective', message: REFERENCE_WARNING_TEXTS.perspective }],
      figures: FIGURES,
    });
  });

  it('runs at most `running` checks at once; the others wait their turn, in order', async () => {
    const held = heldAnalyzer();
    const service = new ReferenceAnalysisService(held.analyzer, silentLogger, {
      running: 1,
      perUser: 2,
      waiting: 4,
    });
    const signal = new AbortController().signal;
    const answers = [
      service.analyse(alice, 'a', signal),
      service.analyse(bob, 'b', signal),
      service.analyse(alice, 'c', signal),
    ];
    await settle();
    expect(held.started()).toBe(1);
    for (let k = 0; k < 3; k++) {
      held.finishOne();
      await settle();
    }
    await Promise.all(answers);
    expect(held.most()).toBe(1);
  });

  it('refuses a user a third check while two are under way, and frees the place after', async () => {
    const held = heldAnalyzer();
    const service = new ReferenceAnalysisService(held.analyzer, silentLogger);
    const signal = new AbortController().signal;
    const first = [service.analyse(alice, 'a', signal), service.analyse(alice, 'b', signal)];
    await expect(service.analyse(alice, 'c', signal)).rejects.toBeInstanceOf(
      ReferenceChecksBusyError,
    );
    // Another user is not held up by alice's checks' count.
    const bobs = service.removeLighting(bob, 'd', signal);
    await settle();
    held.finishOne();
    held.finishOne();
    await Promise.all([...first, bobs]);
    const again = service.analyse(alice, 'e', signal);
    await settle();
    held.finishOne();
    await expect(again).resolves.toMatchObject({ width: 8 });
  });

  it('a check given up while it waits leaves the queue', async () => {
    const held = heldAnalyzer();
    const service = new ReferenceAnalysisService(held.analyzer, silentLogger, {
      running: 1,
      perUser: 2,
      waiting: 4,
    });
    const first = service.analyse(alice, 'a', new AbortController().signal);
    const leaving = new AbortController();
    const second = service.analyse(bob, 'b', leaving.signal);
    leaving.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    held.finishOne();
    await first;
    expect(held.started()).toBe(0);
  });
});
