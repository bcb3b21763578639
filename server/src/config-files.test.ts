import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { tempDir } from './testing/fixtures.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

function secret(name: string, content: string): string {
  const file = path.join(dir.dir, name);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

describe('X_FILE: any setting read from a file (container secrets)', () => {
  it('takes the value from the file, without its final line break', () => {
    const config = loadConfig({
      ADMIN_PASSWORD_FILE: secret('admin', 'from-a-secret-file\n'),
      S3_ACCESS_KEY_ID_FILE: secret('key', 'AKIA1'),
      S3_SECRET_ACCESS_KEY_FILE: secret('secret', 'shh-secret\r\n'),
      FILES_URL: 's3://tiles',
      PORT_FILE: secret('port', '9090\n'),
    });
    expect(config.adminPassword).toBe('from-a-secret-file');
    expect(config.s3?.credentials).toEqual({
      accessKeyId: 'AKIA1',
      secretAccessKey: 'shh-secret',
    });
    expect(config.port).toBe(9090);
  });

  it('refuses a missing file, and X with X_FILE, naming the variable', () => {
    const missing = path.join(dir.dir, 'nowhere');
    expect(() => loadConfig({ ADMIN_PASSWORD_FILE: missing })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_PASSWORD_FILE: missing })).toThrow(
      `ADMIN_PASSWORD_FILE names a file that cannot be read (ENOENT: ${missing})`,
    );
    expect(() =>
      loadConfig({ ADMIN_PASSWORD: 'in-the-env', ADMIN_PASSWORD_FILE: secret('a', 'in-a-file') }),
    ).toThrow('ADMIN_PASSWORD_FILE and ADMIN_PASSWORD are both set: set one of them');
  });

  it('names a bad value from a file by its _FILE variable and never echoes it', () => {
    let message = '';
    try {
      loadConfig({ ADMIN_PASSWORD_FILE: secret('short', 'short7!\n') });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration:\n  ADMIN_PASSWORD (from ADMIN_PASSWORD_FILE) must have at least 8 characters',
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short7!' })).toThrow(
      /^Invalid configuration:\n {2}ADMIN_PASSWORD must have at least 8 characters$/,
    );
  });

  it('leaves variables it does not know alone', () => {
    expect(() => loadConfig({ SOMETHING_ELSE_FILE: '/nowhere' })).not.toThrow();
  });
});
