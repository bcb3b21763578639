// The container image (issue 23, part 6), for real: Debian's docker.io with a daemon the test
// starts (no bridge, no iptables: containers on the host's network). No image registry can be
// reached, so the Dockerfile's base image is made here from Debian's packages and the npm
// registry's Node (deploy/container/make-base-image.sh), then the image is built, run, signed
// in to, made to generate a preview, restarted with its data kept; then run as ROLE=web and
// ROLE=worker against this machine's PostgreSQL, a Mosquitto with dynamic security and s3rver;
// and the compose files are checked with docker-compose config. Prints what each step took.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type RunningMosquitto } from '../server/src/testing/mosquitto.js';
import { createScratchPostgres, type ScratchPostgres } from '../server/src/testing/postgres.js';
import { startS3rver, type RunningS3rver } from '../server/src/testing/s3rver.js';
import {
  addUserIn,
  containerLogs,
  downloadLd,
  freePort,
  generatePreview,
  removeAll,
  runContainer,
  signIn,
  waitHealthy,
} from './support/container.js';
import {
  buildImage,
  composeConfig,
  docker,
  dockerMissing,
  ensureBaseImage,
  ensureDockerd,
  IMAGE_NODE_MAJOR,
} from './support/docker.js';
import { grainyPhoto } from './support/reference.js';

const BASE_IMAGE = `tessera-base:bookworm-node${IMAGE_NODE_MAJOR}`;
const IMAGE = 'tessera:e2e';
/** Names of this run's own, so two runs on one daemon do not meet. */
const RUN = randomBytes(4).toString('hex');
const BUILD_TIMEOUT_MS = 45 * 60_000;
const STEP_TIMEOUT_MS = 5 * 60_000;

const missing = dockerMissing();
const timings: Record<string, number> = {};
let stopDockerd: () => Promise<void> = () => Promise.resolve();

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[step] = Math.round((Date.now() - started) / 1000);
  }
}

const reference = () =>
  grainyPhoto({ width: 256, height: 256, base: [120, 90, 60], grain: 60, format: 'png' });

describe.skipIf(missing !== undefined)('the container image', () => {
  beforeAll(async () => {
    stopDockerd = await timed('dockerd', ensureDockerd);
    const base = await timed('base image', () => ensureBaseImage(BASE_IMAGE, IMAGE_NODE_MAJOR));
    timings[`base image ${base}`] = timings['base image'] ?? 0;
    await timed('docker build', () => buildImage(IMAGE, BASE_IMAGE));
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    console.log(`container test, seconds per step: ${JSON.stringify(timings)}`);
    await stopDockerd();
  }, STEP_TIMEOUT_MS);

  it(
    'runs as a non-root user, signs in, generates, and keeps its data across a restart',
    async () => {
      const name = `tessera-e2e-${RUN}`;
      const volume = `tessera-e2e-data-${RUN}`;
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      try {
        await timed('embedded start', async () => {
          await runContainer(name, IMAGE, {
            env: { PORT: String(port), HOST: '127.0.0.1', BUILTIN_UPSCALER: 'lanczos' },
            volumes: [`${volume}:/data`],
          });
          await waitHealthy(name);
        });
        expect((await docker(['exec', name, 'id', '-un'])).trim()).toBe('tessera');
        // The data lives in the volume, where the server's user may write and others may not.
        expect((await docker(['exec', name, 'stat', '-c', '%U %a', '/data'])).trim()).toBe(
          'tessera 750',
        );

        await addUserIn(name, 'studio', 'studio-password-1');
        const cookie = await signIn(url, 'studio', 'studio-password-1');
        const image = await timed('embedded preview', async () =>
          generatePreview(url, cookie, 'studio', await reference(), name),
        );
        const bytes = await downloadLd(url, cookie, image);
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');

        await timed('embedded restart', async () => {
          await docker(['restart', name], { timeoutMs: STEP_TIMEOUT_MS });
          await waitHealthy(name);
        });
        // Sessions and images are in the volume: the same cookie still opens the same image.
        expect((await downloadLd(url, cookie, image)).equals(bytes)).toBe(true);
        const again = await signIn(url, 'studio', 'studio-password-1');
        expect((await downloadLd(url, again, image)).equals(bytes)).toBe(true);
      } catch (err) {
        throw new Error(`${String(err)}\n--- ${name}\n${await containerLogs(name)}`);
      } finally {
        await removeAll([name], [volume]);
      }
    },
    10 * 60_000,
  );

  it('refuses a setting given both directly and as NAME_FILE, naming it', async () => {
    const name = `tessera-e2e-both-${RUN}`;
    try {
      await docker([
        'run',
        '--name',
        name,
        '--network',
        'none',
        '--env',
        'MQTT_PASSWORD=one',
        '--env',
        'MQTT_PASSWORD_FILE=/etc/hostname',
        IMAGE,
      ]).then(
        () => {
          throw new Error('the container started');
        },
        () => undefined,
      );
      expect(await containerLogs(name)).toMatch(/both MQTT_PASSWORD and MQTT_PASSWORD_FILE/);
    } finally {
      await removeAll([name]);
    }
  });

  describe('as ROLE=web and ROLE=worker on PostgreSQL, Mosquitto and S3', () => {
    const servicePassword = randomBytes(18).toString('base64url');
    let database: ScratchPostgres | undefined;
    let broker: RunningMosquitto | undefined;
    let s3: RunningS3rver | undefined;
    let secrets = '';

    beforeAll(async () => {
      database = await createScratchPostgres();
      broker = await startMosquitto({ username: 'tessera-service', password: servicePassword });
      s3 = await startS3rver('tessera-e2e');
      // The broker's password reaches the containers as a secret file (MQTT_PASSWORD_FILE).
      secrets = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-secrets-'));
      fs.chmodSync(secrets, 0o755);
      fs.writeFileSync(path.join(secrets, 'mqtt_password'), `${servicePassword}\n`, {
        mode: 0o644,
      });
    }, STEP_TIMEOUT_MS);

    afterAll(async () => {
      await broker?.stop();
      await s3?.stop();
      await database?.drop();
      if (secrets) fs.rmSync(secrets, { recursive: true, force: true });
    }, STEP_TIMEOUT_MS);

    it(
      'finishes in the worker container a preview posted to the web container',
      async () => {
        if (!database || !broker || !s3) throw new Error('the services did not start');
        const web = `tessera-e2e-web-${RUN}`;
        const worker = `tessera-e2e-worker-${RUN}`;
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const shared = {
          DATABASE_URL: database.url,
          MQTT_URL: broker.tcpUrl,
          MQTT_USERNAME: 'tessera-service',
          MQTT_PASSWORD_FILE: '/run/secrets/mqtt_password',
          PUBLIC_MQTT_URL: broker.wsUrl,
          FILES_URL: `s3://${s3.bucket}/files`,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
          BUILTIN_UPSCALER: 'lanczos',
          LOG_LEVEL: 'info',
        };
        const volumes = [`${secrets}:/run/secrets:ro`];
        try {
          await timed('web + worker start', async () => {
            // The web server first: it sets up the service's role on Mosquitto, which closes
            // the service's other connections.
            await runContainer(web, IMAGE, {
              env: {
                ...shared,
                ROLE: 'web',
                INSTANCE_NAME: 'web-1',
                PORT: String(port),
                HOST: '127.0.0.1',
              },
              volumes,
            });
            await waitHealthy(web);
            await runContainer(worker, IMAGE, {
              env: { ...shared, ROLE: 'worker', INSTANCE_NAME: 'worker-1' },
              volumes,
            });
            await waitHealthy(worker);
          });

          // A user made inside the web container also gets its login on Mosquitto.
          await addUserIn(web, 'painter', 'painter-password-1');
          const cookie = await signIn(url, 'painter', 'painter-password-1');
          const image = await timed('web + worker preview', async () =>
            generatePreview(url, cookie, 'painter', await reference(), worker),
          );
          // ROLE=web runs no jobs: the worker container made it, and the file is in the bucket.
          expect(await containerLogs(worker)).toContain(image);
          expect(await containerLogs(web)).not.toContain('job finished');
          const bytes = await downloadLd(url, cookie, image);
          expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        } catch (err) {
          const logs = `--- web\n${await containerLogs(web)}\n--- worker\n${await containerLogs(worker)}`;
          throw new Error(`${String(err)}\n${logs}`);
        } finally {
          await removeAll([web, worker]);
        }
      },
      10 * 60_000,
    );
  });

  it('has compose files docker-compose accepts, with the roles of the scaled layout', async () => {
    const single = await composeConfig('compose.yaml');
    expect(single).toMatch(/\/data/);
    const scaled = await composeConfig('compose.scaled.yaml');
    for (const service of ['web-1:', 'web-2:', 'worker-1:', 'postgres:', 'mosquitto:', 'minio:']) {
      expect(scaled).toContain(service);
    }
    expect(scaled.match(/ROLE: web/g)).toHaveLength(2);
    expect(scaled.match(/ROLE: worker/g)).toHaveLength(1);
  });
});
