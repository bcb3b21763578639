import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCmykProfile } from '../../testing/icc-profile.js';
import { FolderPrintProfiles, SRGB_PROFILE } from './profiles.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-print-profiles-'));
  fs.writeFileSync(
    path.join(dir, 'press-b.icc'),
    testCmykProfile({ description: 'B press (test)', forwardGrid: 3, inverseGrid: 3 }),
  );
  fs.writeFileSync(
    path.join(dir, 'press-a.ICM'),
    testCmykProfile({ description: 'A press (test)', forwardGrid: 3, inverseGrid: 3 }),
  );
  // A device link is no output profile; a file cut short is no profile; a text is nothing.
  const link = testCmykProfile({ forwardGrid: 3, inverseGrid: 3 });
  link.write('link', 12, 'latin1');
  fs.writeFileSync(path.join(dir, 'device-link.icc'), link);
  fs.writeFileSync(path.join(dir, 'broken.icc'), link.subarray(0, 200));
  fs.writeFileSync(path.join(dir, 'README.txt'), 'profiles go here');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the profiles folder', () => {
  it('lists sRGB first, then each RGB or CMYK output profile by its own description', async () => {
    const profiles = await new FolderPrintProfiles({ printProfilesDir: dir }).list();
    expect(profiles).toEqual([
      SRGB_PROFILE,
      {
        id: 'press-a.ICM',
        name: 'A press (test)',
        colourSpace: 'cmyk',
        path: path.join(dir, 'press-a.ICM'),
      },
      {
        id: 'press-b.icc',
        name: 'B press (test)',
        colourSpace: 'cmyk',
        path: path.join(dir, 'press-b.icc'),
      },
    ]);
  });

  it('finds a profile by its id, and nothing by a name it does not list', async () => {
    const profiles = new FolderPrintProfiles({ printProfilesDir: dir });
    expect((await profiles.find('press-b.icc'))?.name).toBe('B press (test)');
    expect(await profiles.find('srgb')).toEqual(SRGB_PROFILE);
    for (const id of ['device-link.icc', 'broken.icc', 'README.txt', '../press-b.icc']) {
      expect(await profiles.find(id)).toBeUndefined();
    }
  });

  it('offers sRGB alone when the folder does not exist', async () => {
    const profiles = new FolderPrintProfiles({ printProfilesDir: path.join(dir, 'none') });
    expect(await profiles.list()).toEqual([SRGB_PROFILE]);
  });
});
