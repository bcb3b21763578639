// LD image rows as the benchmarks seed them: through the server's own repositories in one
// transaction, with the 16 metadata fields of SPEC §3 and tag links on ~40% of the rows.
import { createImageRepository } from '../server/src/store/images.js';
import { createTagRepository } from '../server/src/store/tags.js';
import { createUserRepository } from '../server/src/store/users.js';
import type { TestServer } from '../server/src/testing/test-server.js';

/** Tags each seeded user has. */
export const TAGS = 8;

/** The output formats the rows cycle through, with their HD factors. */
export const FORMATS = [
  { latent_width: 1024, latent_height: 1024, cr701: 1.5, image692: 2.7 },
  { latent_width: 1448, latent_height: 724, cr701: 1.5, image692: 3.77 },
  { latent_width: 677, latent_height: 1548, cr701: 2.35, image692: 3 },
  { latent_width: 2506, latent_height: 418, cr701: 1.7, image692: 2 },
];

const PROMPTS = [
  'seamless stone wall texture, weathered limestone blocks, moss in the joints, soft daylight, top view',
  'hand painted wooden planks, oak, warm tones, stylized game texture, tileable, high detail',
  'ceramic floor tiles, terracotta, hexagonal pattern, slight wear, photorealistic, even lighting',
  'brushed metal plate with rivets, sci-fi panel, scratches, tileable texture, PBR albedo',
  'forest floor, fallen leaves and pine needles, small stones, overcast light, seamless',
  'marble slab, white with grey veins, polished, subtle reflections, square tile, 4k',
];
const NEGATIVE = 'blurry, low quality, watermark, text, signature, visible seams, distorted, jpeg';

/** Generation parameters as SPEC §3 lists them: 16 fields. */
function metadataOf(username: string, i: number, createdAt: string): Record<string, unknown> {
  const format = FORMATS[i % FORMATS.length] as (typeof FORMATS)[number];
  return {
    input_image_path: `input/${username}/reference_${String(i % 40).padStart(3, '0')}.png`,
    cliptextencode_585: PROMPTS[i % PROMPTS.length],
    cliptextencode_716: NEGATIVE,
    ksampler_cfg: 3.5,
    ksampler_denoise: 1,
    ipadapter_weight: 0.9,
    style: (i % 5) / 100,
    seed: i % 3 === 0 ? 10 : (i * 2_654_435_761) % 2 ** 32,
    latent_width: format.latent_width,
    latent_height: format.latent_height,
    created_at: createdAt,
    updatedAt: createdAt,
    rescale_factor_cr711: 1.74,
    scale_by_latent707: 1,
    rescale_factor_cr701: format.cr701,
    scale_by_image692: format.image692,
  };
}

export interface SeededRow {
  filename: string;
  /** Its index in FORMATS. */
  format: number;
}

/** `count` LD rows of `username` (who must exist) and TAGS tags; the owner's id and the rows. */
export async function seedLdImages(
  server: TestServer,
  username: string,
  count: number,
): Promise<{ ownerId: number; rows: SeededRow[] }> {
  const owner = await createUserRepository(server.db).findByUsername(username);
  if (!owner) throw new Error(`no user ${username}`);
  const start = Date.parse('2025-01-01T00:00:00Z');
  const rows: SeededRow[] = [];
  // Before the images' transaction: a tag's insert opens a transaction of its own (its cap).
  const tags = createTagRepository(server.db);
  for (let t = 0; t < TAGS; t++)
    await tags.insert(owner.id, { id: `tag-${t}`, name: `Tag ${t}`, color: '#3a7bd5' });
  await server.db.transaction().execute(async (trx) => {
    const images = createImageRepository(trx);
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(start + i * 37_000).toISOString();
      const f = i % FORMATS.length;
      const format = FORMATS[f] as (typeof FORMATS)[number];
      const filename = `ComfyUI_${String(i + 1).padStart(5, '0')}_.png`;
      rows.push({ filename, format: f });
      const image = await images.insert({
        ownerId: owner.id,
        kind: 'ld',
        filename,
        sourceImageId: null,
        width: format.latent_width,
        height: format.latent_height,
        bytes: 900_000 + ((i * 7919) % 600_000),
        metadata: metadataOf(username, i, createdAt),
        createdAt,
      });
      if (i % 3 === 0) await images.assignTag(owner.id, image.id, `tag-${i % TAGS}`);
      if (i % 10 === 0) await images.assignTag(owner.id, image.id, `tag-${(i + 3) % TAGS}`);
    }
  });
  return { ownerId: owner.id, rows };
}
