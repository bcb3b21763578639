// The multi-process test (issue 16, part 7): on the local cluster (deploy/local/cluster.sh: 2
// servers and 1 worker on PostgreSQL, Mosquitto and s3rver), 20 users sign in on alternating
// servers, connect to the broker as the browser does, create tags, generate previews and order
// HD; one server dies by SIGKILL while HD jobs run. Then every job finished exactly once, no
// image is lost or listed twice, no message reached the wrong user, and everything is
// reachable from the surviving server.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addUser,
  clusterDown,
  clusterMissing,
  clusterRestart,
  clusterUp,
  environmentOf,
  isAlive,
  logTails,
  queryRows,
  type Cluster,
} from './support/cluster.js';
import { ClusterUser, filesOf, inParallel, storedKeys, within } from './support/cluster-user.js';
import { followJobEnds, watchExit, type JobEndFollower } from './support/process-events.js';

const USERS = 20;
const TAGS_PER_USER = 2;
/** Bounds of the waits; the figures printed at the end say how long things took. */
const JOBS_TIMEOUT_MS = 300_000;
/** A killed job's lease runs out after this, and another process takes the job. */
const JOB_LEASE_MS = 5_000;

const missing = await clusterMissing();

interface JobRow {
  public_id: string;
  kind: string;
  status: string;
  attempts: number;
  output: string | null;
  username: string;
}

interface ImageRow {
  kind: 'ld' | 'hd';
  filename: string;
  bytes: number;
  username: string;
}

describe.skipIf(missing !== undefined)('a cluster of 2 servers and a worker', () => {
  let cluster: Cluster;
  let jobEnds: JobEndFollower | undefined;
  const users: ClusterUser[] = [];
  const started = Date.now();

  beforeAll(async () => {
    cluster = await clusterUp({
      JOB_LEASE_MS: String(JOB_LEASE_MS),
      BUILTIN_UPSCALER: 'lanczos',
      // The runner's "job finished" lines are the previews' end events.
      LOG_LEVEL: 'info',
      // Server 2 dies by itself if it gets to write an HD file: see the kill below.
      CLUSTER_ENV_SERVER_2: 'TESSERA_FAULT_POINT=hd:file-written',
    });
    jobEnds = followJobEnds(cluster.logs);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(users.map((user) => user.close()));
    jobEnds?.close();
    if (cluster) await clusterDown(cluster);
  }, 60_000);

  it('loses, doubles and misroutes nothing when a server is killed mid-job', async () => {
    try {
      await scenario();
    } catch (err) {
      // The processes' own words, before `down` removes them.
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logTails(cluster)}`);
    }
  }, 900_000);

  async function scenario(): Promise<void> {
    const [survivorUrl, victimUrl] = cluster.serverUrls;
    const victimPid = cluster.serverPids[1];
    if (!survivorUrl || !victimUrl || victimPid === undefined || !jobEnds) {
      throw new Error('two servers');
    }
    const { nextJobEnd } = jobEnds;

    // 20 users made with the cluster's `npm run users`, signed in on alternating servers.
    for (let i = 1; i <= USERS; i++) {
      const server = cluster.serverUrls[i % 2] ?? survivorUrl;
      users.push(new ClusterUser(`user${String(i).padStart(2, '0')}`, server, nextJobEnd));
    }
    await inParallel(users, 4, (user) => addUser(cluster, user.username, user.password));
    await inParallel(users, 5, async (user) => {
      await user.signIn();
      expect(await user.connect()).toBe(cluster.mqttPublicUrl);
    });

    // Tags, then a preview each (the builtin engine, small references) with a tag assigned.
    const tagIds = new Map<string, string[]>();
    await inParallel(users, 10, async (user) => {
      const ids: string[] = [];
      for (let t = 0; t < TAGS_PER_USER; t++) {
        const id = randomUUID();
        await user.request('create-tag', {
          id,
          name: `Tag ${t} ${user.username}`.slice(0, 15),
          color: '#336699',
        });
        ids.push(id);
      }
      tagIds.set(user.username, ids);
    });
    const previews = new Map<string, string>();
    await inParallel(users, 10, async (user) => {
      const shade = 40 + Number(user.username.slice(4)) * 9;
      const reference = await sharp({
        create: { width: 96, height: 96, channels: 3, background: { r: shade, g: 90, b: 60 } },
      })
        .png()
        .toBuffer();
      const filename = await user.generatePreview(reference);
      previews.set(user.username, filename);
      await user.request('assign-tag', { id: tagIds.get(user.username)?.[0], filename });
    });

    // HD orders, with the metadata the gallery read, all at once.
    await inParallel(users, 20, async (user) => {
      const list = await user.request('list-low-definition', { page: 1, size: 100, filters: {} });
      const images = list.images as { filename: string; metadata: Record<string, unknown> }[];
      const image = images.find((i) => i.filename === previews.get(user.username));
      if (!image) throw new Error(`${user.username}: the new preview is not listed`);
      await user.orderHd(image.filename, image.metadata);
    });
    const hdOrders = users.reduce((sum, user) => sum + user.hdOrders.size, 0);
    // Every order has become a job before the kill (a command in flight to a dying process
    // is QoS 0: the test is about jobs, not about that): a job's first status is published once
    // its row is written.
    const orderOf = (user: ClusterUser) => [...user.hdOrders][0] ?? '';
    await within(
      'every HD order queued',
      60_000,
      Promise.all(users.map((user) => user.hdStatus(orderOf(user), () => true))),
    );

    // The kill: server 2 runs with a fault point that kills it as it finishes writing an HD
    // file (before the row is recorded) if it takes an HD job; if it has not taken one once
    // HD jobs run, the test kills it with SIGKILL itself.
    // (A job runs before server 2 can write an HD file, so its status comes first either way.)
    await within(
      'an HD job running',
      120_000,
      Promise.any(
        users.map((user) =>
          user.hdStatus(
            orderOf(user),
            (status) => status === 'in_progress' || status === 'finished',
          ),
        ),
      ),
    );
    const victim = await watchExit(victimUrl);
    let killedBy = 'fault point';
    if (isAlive(victimPid)) {
      process.kill(victimPid, 'SIGKILL');
      killedBy = 'the test';
    }
    await within('server 2 gone', 10_000, victim.gone);

    // Every job ends, on the processes left.
    const openJobs = () =>
      queryRows<{ id: number; kind: string; status: string; attempts: number }>(
        cluster,
        "select id, kind, status, attempts from jobs where status in ('queued', 'in_progress')",
      );
    // Each order's 'finished' status is published once its row says so (the previews finished
    // before the orders were sent).
    await within(
      'every HD order finished',
      JOBS_TIMEOUT_MS,
      Promise.all(users.map((user) => user.hdStatus(orderOf(user), (s) => s === 'finished'))),
    ).catch(async (err: unknown) => {
      throw new Error(`${String(err)}; still open: ${JSON.stringify(await openJobs())}`);
    });
    expect(await openJobs()).toEqual([]);

    // Every job finished, once: one row per preview and per order, each finished with one
    // output, and one image row per job.
    const jobs = await queryRows<JobRow>(
      cluster,
      `select j.public_id, j.kind, j.status, j.attempts, j.output, u.username
         from jobs j join users u on u.id = j.owner_id order by j.id`,
    );
    const images = await queryRows<ImageRow>(
      cluster,
      `select i.kind, i.filename, i.bytes, u.username
         from images i join users u on u.id = i.owner_id order by i.id`,
    );
    expect(jobs.filter((j) => j.kind === 'preview')).toHaveLength(USERS);
    expect(jobs.filter((j) => j.kind === 'hd')).toHaveLength(hdOrders);
    expect(jobs.filter((j) => j.status !== 'finished')).toEqual([]);
    expect(new Set(jobs.map((j) => j.public_id)).size).toBe(jobs.length);
    expect(images.filter((i) => i.kind === 'ld')).toHaveLength(USERS);
    expect(images.filter((i) => i.kind === 'hd')).toHaveLength(hdOrders);

    const keys = storedKeys(cluster.s3Dir);
    for (const user of users) {
      const own = images.filter((i) => i.username === user.username);
      const ld = own.filter((i) => i.kind === 'ld').map((i) => i.filename);
      const hd = own.filter((i) => i.kind === 'hd').map((i) => i.filename);
      expect(ld).toEqual([previews.get(user.username)]);
      expect(hd).toHaveLength(1);
      // The store holds exactly those files: nothing a killed attempt left beside them.
      expect(filesOf(keys, user.username, 'ld')).toEqual(ld);
      expect(filesOf(keys, user.username, 'hd')).toEqual(hd);

      // The answers list each image once, as the store has it.
      const ldList = await user.request('list-low-definition', { page: 1, size: 100 });
      expect(
        (ldList.images as { filename: string; tags: string[] }[]).map((i) => i.filename),
      ).toEqual(ld);
      expect((ldList.images as { tags: string[] }[])[0]?.tags).toEqual([
        tagIds.get(user.username)?.[0],
      ]);
      const hdList = await user.request('list-high-definition', { page: 1, size: 100 });
      expect((hdList.images as { filename: string }[]).map((i) => i.filename)).toEqual(hd);
      const tagList = await user.request('list-tag', { page: 1, size: 10 });
      expect((tagList.tags as { id: string }[]).map((t) => t.id).sort()).toEqual(
        [...(tagIds.get(user.username) ?? [])].sort(),
      );

      // The user was told (waited for above): their order's last status is finished, with the
      // HD file's name.
      const order = orderOf(user);
      expect(user.hdStatuses(order ?? '').at(-1)).toMatchObject({
        status: 'finished',
        output_image: hd[0],
      });
      expect(user.hdStatuses(order ?? '').every((s) => s.image === ld[0])).toBe(true);

      // Everything is reachable from the surviving server, with the session made on either.
      for (const [route, filename, bytes] of [
        [`/api/images/ld/`, ld[0], own.find((i) => i.kind === 'ld')?.bytes],
        [`/api/images/ld/thumbnail/`, ld[0], undefined],
        [`/api/images/hd/`, hd[0], own.find((i) => i.kind === 'hd')?.bytes],
        [`/api/images/hd/thumbnail/`, hd[0], undefined],
      ] as const) {
        const res = await fetch(`${survivorUrl}${route}${encodeURIComponent(filename ?? '')}`, {
          headers: { cookie: user.cookie },
        });
        expect(res.status, `${user.username} ${route}${filename}`).toBe(200);
        const body = Buffer.from(await res.arrayBuffer());
        if (bytes !== undefined) expect(body.length).toBe(bytes);
        expect((await sharp(body).metadata()).width).toBeGreaterThan(0);
      }
    }

    // No message reached the wrong user: each got only its own topics, answers to its own
    // transactions and statuses of its own orders.
    let messages = 0;
    for (const user of users) {
      for (const { topic, body } of user.received) {
        messages++;
        expect(topic.endsWith(`/user/${user.username}`), `${user.username} got ${topic}`).toBe(
          true,
        );
        if (typeof body.transactionid === 'string') {
          expect(user.sentTransactions.has(body.transactionid)).toBe(true);
          expect(body.user).toBe(user.username);
        } else {
          expect(
            user.hdOrders.has(String(body.id)),
            `${user.username} got ${JSON.stringify(body)}`,
          ).toBe(true);
        }
      }
    }

    const rerun = jobs.filter((j) => j.attempts > 1).length;
    console.log(
      `cluster: ${USERS} users, ${jobs.length} jobs (${rerun} run more than once), ` +
        `${images.length} images, 1 server killed by ${killedBy}, ${messages} messages checked, ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
});

// The scaled layout of docs/scale-out.md (issue 23, part 13): a ROLE=web process that serves the
// users and runs no jobs, and a ROLE=worker that runs them; each restarted by hand with
// `cluster.sh restart`, which starts it again with the settings it was given at `up`.
describe.skipIf(missing !== undefined)('a cluster of a web process and a worker', () => {
  let cluster: Cluster;
  let jobEnds: JobEndFollower | undefined;
  let user: ClusterUser;
  const reference = () =>
    sharp({ create: { width: 96, height: 96, channels: 3, background: '#8a5a44' } })
      .png()
      .toBuffer();

  beforeAll(async () => {
    cluster = await clusterUp({
      CLUSTER_SERVERS: '0',
      CLUSTER_WEBS: '1',
      CLUSTER_WORKERS: '1',
      // Not the default: a restart by hand must keep it.
      JOB_LEASE_MS: String(JOB_LEASE_MS),
      BUILTIN_UPSCALER: 'lanczos',
      LOG_LEVEL: 'info',
    });
    jobEnds = followJobEnds(cluster.logs);
  }, 200_000);

  afterAll(async () => {
    await user?.close();
    jobEnds?.close();
    if (cluster) await clusterDown(cluster);
  }, 60_000);

  it('a preview sent to the web process is made by the worker, also after each is restarted', async () => {
    try {
      const [webUrl] = cluster.webUrls;
      const [workerPid] = cluster.workerPids;
      if (!webUrl || workerPid === undefined || !jobEnds) {
        throw new Error('a web process and a worker');
      }
      expect(cluster.serverUrls).toEqual([]);
      user = new ClusterUser('webuser', webUrl, jobEnds.nextJobEnd);
      await addUser(cluster, user.username, user.password);
      await user.signIn();
      expect(await user.connect()).toBe(cluster.mqttPublicUrl);
      const first = await user.generatePreview(await reference());
      // The web process runs no jobs: the worker made it.
      const finishedBy = (name: string) =>
        fs.readFileSync(path.join(cluster.logs, `${name}.log`), 'utf8').match(/"job finished"/g)
          ?.length ?? 0;
      expect(finishedBy('worker-1')).toBe(1);
      expect(finishedBy('web-1')).toBe(0);

      // Restarted by hand from a bare shell: the same settings, role and address.
      const worker = await clusterRestart(cluster, 'worker-1');
      expect(isAlive(workerPid)).toBe(false);
      expect(environmentOf(worker.pid)).toMatchObject({
        ROLE: 'worker',
        INSTANCE_NAME: 'worker-1',
        JOB_LEASE_MS: String(JOB_LEASE_MS),
        DATABASE_URL: cluster.databaseUrl,
      });
      const web = await clusterRestart(cluster, 'web-1');
      expect(web.url).toBe(webUrl);
      expect(environmentOf(web.pid)).toMatchObject({
        ROLE: 'web',
        JOB_LEASE_MS: String(JOB_LEASE_MS),
      });

      await user.signIn();
      const second = await user.generatePreview(await reference());
      expect(second).not.toBe(first);
      expect(finishedBy('worker-1')).toBe(2);
      expect(finishedBy('web-1')).toBe(0);
      const jobs = await queryRows<JobRow>(
        cluster,
        `select j.public_id, j.kind, j.status, j.attempts, j.output, u.username
           from jobs j join users u on u.id = j.owner_id order by j.id`,
      );
      expect(jobs.map((j) => [j.kind, j.status, j.attempts])).toEqual([
        ['preview', 'finished', 1],
        ['preview', 'finished', 1],
      ]);
    } catch (err) {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logTails(cluster)}`);
    }
  }, 600_000);
});
