import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorText, serverError } from '@tessera/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { diskFullPoint } from '../runtime/faults.js';
import { PermanentJobError } from '../jobs/runner.js';
import { ServiceError } from './errors.js';
import { readableError } from './readable-error.js';

/** Real failures of the real libraries turned into the contract's texts (issue 22, part 5). */

async function thrown(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (err) {
    return err;
  }
  throw new Error('nothing was thrown');
}

const textOf = async (action: () => unknown) => readableError(await thrown(action)).text;

describe('readableError (issue 22, part 5)', () => {
  it('keeps a text already written for people', async () => {
    expect(
      await textOf(() => {
        throw new ServiceError(serverError('TAG_NOT_FOUND', 'x'));
      }),
    ).toBe(errorText('TAG_NOT_FOUND', 'x'));
    expect(
      await textOf(() => {
        throw new PermanentJobError(serverError('IMAGE_GONE', 'a.png'));
      }),
    ).toBe(errorText('IMAGE_GONE', 'a.png'));
  });

  it('tells a full disk as such, whether the error kept its code or only its words', async () => {
    const prev = process.env.TESSERA_FAULT_DISK_FULL;
    process.env.TESSERA_FAULT_DISK_FULL = 'test:write';
    try {
      const err = await thrown(() => diskFullPoint('test:write', '/srv/data/tmp/x.png'));
      expect(readableError(err).text).toBe(errorText('DISK_FULL'));
      // As a worker thread's failure arrives: its message only.
      const relayed = new Error(`Builtin engine: ${(err as Error).message}`);
      expect(readableError(relayed).text).toBe(errorText('DISK_FULL'));
    } finally {
      if (prev === undefined) delete process.env.TESSERA_FAULT_DISK_FULL;
      else process.env.TESSERA_FAULT_DISK_FULL = prev;
    }
  });

  it('tells a missing file and a name too long for the disk as not found', async () => {
    const dir = os.tmpdir();
    expect(await textOf(() => fsp.stat(path.join(dir, 'tessera-no-such-file.png')))).toBe(
      errorText('NOT_FOUND'),
    );
    expect(await textOf(() => fsp.stat(path.join(dir, `${'é'.repeat(200)}.png`)))).toBe(
      errorText('NOT_FOUND'),
    );
  });

  it("tells libvips' failure to decode a damaged image as unreadable", async () => {
    const png = await sharp({
      create: { width: 256, height: 256, channels: 3, background: '#888' },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const truncated = png.subarray(0, png.length / 2);
    const err = await thrown(() => sharp(truncated).raw().toBuffer());
    expect(readableError(err).text).toBe(errorText('IMAGE_UNREADABLE'));
    const garbage = await thrown(() => sharp(Buffer.from('not an image')).metadata());
    expect(readableError(garbage).text).toBe(errorText('IMAGE_UNREADABLE'));
  });

  it('tells anything else with the general text it is given, never its own words', () => {
    const err = new Error("EACCES: permission denied, open '/srv/data/files/alice/ld/a.png'");
    expect(readableError(err).text).toBe(errorText('INTERNAL'));
    expect(readableError(err, 'JOB_FAILED').text).toBe(errorText('JOB_FAILED'));
    expect(readableError('a string').text).toBe(errorText('INTERNAL'));
  });
});
