import fs from 'node:fs/promises';
import { API_ROUTES, buildHdCommand, type HdSizeLabel } from '@tessera/contract';
import mqtt from 'mqtt';
import sharp from 'sharp';
import { makeThumbnail } from '../../server/src/imaging/probe.js';
import { withPngText } from '../../server/src/imaging/png-text.js';
import { openDatabase } from '../../server/src/store/database.js';
import { createImageRepository } from '../../server/src/store/images.js';
import { createUserRepository } from '../../server/src/store/users.js';
import type { RunningServer } from './server.js';
import { userFolder, type User } from './session.js';

export interface SeedImage {
  filename: string;
  width?: number;
  height?: number;
  /** Written into the PNG as the engines write it; refresh-low-definition reads it back. */
  metadata?: Record<string, unknown>;
  /** Background colour of the made image, e.g. '#884422'. */
  color?: string;
  /**
   * The file's modification time, which the server takes as the image's date in its list
   * (newest first); set it to make the order certain.
   */
  modifiedAt?: Date;
}

let lastAddress = 1;

/**
 * Seeding connects often; each of its connections comes from another loopback address (127.0.0.2
 * to 127.0.0.254), as another machine of the user's would, so the per-address broker limits
 * (connections not yet logged in, failed logins) leave 127.0.0.1 to the browser under test.
 */
function nextLocalAddress(): string {
  lastAddress = lastAddress >= 254 ? 2 : lastAddress + 1;
  return `127.0.0.${lastAddress}`;
}

/** An MQTT connection as the user, the way a second client of theirs would connect. */
async function connectAs(server: RunningServer, user: User) {
  const { url } = (await (await fetch(`${server.url}${API_ROUTES.brokerUrl}`)).json()) as {
    url: string;
  };
  return mqtt.connectAsync(url, {
    username: user.username,
    password: user.password,
    clean: true,
    reconnectPeriod: 0,
    wsOptions: { localAddress: nextLocalAddress() },
  });
}

/**
 * Puts LD images into a user's folder as another pipeline would, then has the server index them
 * with refresh-low-definition over MQTT (as the user), so they list with thumbnails and metadata.
 */
export async function seedLdImages(
  server: RunningServer,
  user: User,
  images: readonly SeedImage[],
): Promise<void> {
  const folder = userFolder(server, user.username, 'ld');
  await fs.mkdir(folder, { recursive: true });
  for (const image of images) {
    const png = await sharp({
      create: {
        width: image.width ?? 64,
        height: image.height ?? 64,
        channels: 3,
        background: image.color ?? '#8a6f4e',
      },
    })
      .png()
      .toBuffer();
    const data = image.metadata
      ? withPngText(png, 'metadata', JSON.stringify(image.metadata))
      : png;
    await fs.writeFile(`${folder}/${image.filename}`, data);
    if (image.modifiedAt) {
      await fs.utimes(`${folder}/${image.filename}`, image.modifiedAt, image.modifiedAt);
    }
  }
  await refreshOverMqtt(server, user);
}

/**
 * Many LD images at once (a gallery of a thousand in about a second): one small picture and its
 * thumbnail copied under every name, and the rows written through the server's own image
 * repository into its SQLite file (WAL lets the running server read on), as generation records
 * them. For scale; seedLdImages takes the way another pipeline would.
 */
export async function seedManyLdImages(
  server: RunningServer,
  user: User,
  images: readonly (Omit<SeedImage, 'modifiedAt' | 'color'> & { addedAt?: Date })[],
): Promise<void> {
  const folder = userFolder(server, user.username, 'ld');
  const thumbnails = userFolder(server, user.username, 'ld-thumbnails');
  await Promise.all([folder, thumbnails].map((dir) => fs.mkdir(dir, { recursive: true })));
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#8a6f4e' },
  })
    .png()
    .toBuffer();
  const thumbnail = await makeThumbnail(png);
  for (const image of images) {
    await fs.writeFile(`${folder}/${image.filename}`, png);
    await fs.writeFile(`${thumbnails}/${image.filename}.webp`, thumbnail);
  }
  const db = await openDatabase({ dataDir: server.dataDir });
  try {
    const owner = await createUserRepository(db).findByUsername(user.username);
    if (!owner) throw new Error(`no user ${user.username}`);
    await db.transaction().execute(async (trx) => {
      const rows = createImageRepository(trx);
      for (const image of images) {
        await rows.insert({
          ownerId: owner.id,
          kind: 'ld',
          filename: image.filename,
          sourceImageId: null,
          width: image.width ?? 64,
          height: image.height ?? 64,
          bytes: png.length,
          metadata: image.metadata ?? {},
          createdAt: (image.addedAt ?? new Date()).toISOString(),
        });
      }
    });
  } finally {
    await db.destroy();
  }
}

/** Sends refresh-low-definition as the user and waits for its answer. */
export async function refreshOverMqtt(server: RunningServer, user: User): Promise<void> {
  await commandOverMqtt(server, user, 'refresh-low-definition', {}, { timeoutMs: 60_000 });
}

/**
 * Sends one answered command (SPEC §7) as the user, the way a second client of theirs would, and
 * resolves with the answer; rejects when it fails. E.g. create-tag or assign-tag to set a scene.
 */
export async function commandOverMqtt(
  server: RunningServer,
  user: User,
  action: string,
  fields: Record<string, unknown>,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<Record<string, unknown>> {
  const client = await connectAs(server, user);
  try {
    const transactionid = `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    await client.subscribeAsync(`query/+/user/${user.username}`);
    const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${action}: no answer`)), timeoutMs);
      client.on('message', (_topic, payload) => {
        const message = JSON.parse(String(payload)) as Record<string, unknown>;
        if (message.transactionid !== transactionid) return;
        clearTimeout(timer);
        if (message.success === true) resolve(message);
        else reject(new Error(`${action} failed: ${String(payload)}`));
      });
    });
    await client.publishAsync(
      `command/${action}/user/${user.username}`,
      JSON.stringify({ transactionid, user: user.username, ...fields }),
    );
    return await answered;
  } finally {
    await client.endAsync();
  }
}

/**
 * Orders an HD version of an LD image as the browser does (the generate-image command, fire and
 * forget, every value a string) and waits for the 'finished' status; resolves with the HD file
 * name. The server should run with BUILTIN_UPSCALER=lanczos for speed.
 */
export async function orderHdOverMqtt(
  server: RunningServer,
  user: User,
  command: Record<string, string>,
  timeoutMs = 60_000,
): Promise<string> {
  const client = await connectAs(server, user);
  try {
    await client.subscribeAsync(`query/status-generate-image/user/${user.username}`);
    const finished = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`HD order ${command.id}: not finished in time`)),
        timeoutMs,
      );
      client.on('message', (_topic, payload) => {
        const message = JSON.parse(String(payload)) as {
          id?: string;
          status?: string;
          output_image?: string;
          error?: string;
        };
        if (message.id !== command.id) return;
        if (message.status === 'finished' && message.output_image) {
          clearTimeout(timer);
          resolve(message.output_image);
        } else if (message.status === 'error') {
          clearTimeout(timer);
          reject(new Error(`HD order ${command.id} failed: ${message.error ?? String(payload)}`));
        }
      });
    });
    await client.publishAsync(
      `command/generate-image/user/${user.username}`,
      JSON.stringify(command),
    );
    return await finished;
  } finally {
    await client.endAsync();
  }
}

/**
 * Sends HD orders as the user from a second client (another tab or device, say), one right after
 * the other, as the Image Details modal builds them (with the default seed), and does not wait
 * for them.
 */
export async function sendHdOrdersOverMqtt(
  server: RunningServer,
  user: User,
  orders: readonly { image: string; sizeLabel: HdSizeLabel }[],
): Promise<void> {
  const client = await connectAs(server, user);
  try {
    for (const { image, sizeLabel } of orders) {
      const id = `e2e-${image}-${sizeLabel}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await client.publishAsync(
        `command/generate-image/user/${user.username}`,
        JSON.stringify(buildHdCommand({ id, user: user.username, image, metadata: {}, sizeLabel })),
      );
    }
  } finally {
    await client.endAsync();
  }
}
