import {
  DASHBOARD_TEXTS,
  GALLERY_TEXTS,
  TAG_NAME_MAX_LENGTH,
  TAG_TEXTS,
  TEXTS,
} from '@tessera/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from './support/browser.js';
import { recordTexts } from './support/screen.js';
import { commandOverMqtt, seedLdImages } from './support/seed.js';
import { startServer, type RunningServer } from './support/server.js';
import { addNewUser, openPage, signIn, type User } from './support/session.js';

/**
 * The Tags panel and tag assignment on the Dashboard (SPEC §2, §4, §5; checklist T1–T13, D4,
 * D7), against the real server and broker.
 */

const SQUARE = { latent_width: 1024, latent_height: 1024 };

describe.skipIf(browserMissing)('Dashboard: tags', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  /** A user with three images: stone.png, sand.png and moss.png. */
  async function newUser(): Promise<User> {
    const user = addNewUser(server, 'tags');
    await seedLdImages(server, user, [
      { filename: 'stone.png', metadata: SQUARE, color: '#777777' },
      { filename: 'sand.png', metadata: SQUARE, color: '#e0c080' },
      { filename: 'moss.png', metadata: SQUARE, color: '#4f7a3a' },
    ]);
    return user;
  }

  async function tagImages(
    user: User,
    tag: { id: string; name: string; color: string },
    filenames: string[],
  ) {
    await commandOverMqtt(server, user, 'create-tag', tag);
    for (const filename of filenames) {
      await commandOverMqtt(server, user, 'assign-tag', { id: tag.id, filename });
    }
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    page = await openPage(browser, server, { viewport: { width: 1280, height: 800 } });
  });
  afterEach(() => page.context().close());

  const panel = () => page.getByRole('region', { name: 'Tags' });
  const tagButton = (name: string) => panel().getByRole('button', { name, exact: true });
  const shownImages = () =>
    page
      .getByRole('list', { name: DASHBOARD_TEXTS.images })
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')).sort());

  async function open(user: User) {
    await signIn(page, user.username, user.password);
    await page
      .getByRole('list', { name: DASHBOARD_TEXTS.images })
      .getByRole('img')
      .first()
      .waitFor();
  }

  it('[T1][T9][T10][T11][T12] creates a tag in the dialog (colour #000000 by default), with each name message', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-stone', name: 'Stone', color: '#777777' }, []);
    await open(user);
    await tagButton('Stone').waitFor();

    await panel().getByRole('button', { name: TAG_TEXTS.newTag }).click();
    const dialog = page.getByRole('dialog', { name: TAG_TEXTS.newTag });
    expect(await dialog.getByLabel(TAG_TEXTS.colour).inputValue()).toBe('#000000');
    const name = dialog.getByLabel(TAG_TEXTS.name);
    const create = dialog.getByRole('button', { name: TAG_TEXTS.create });
    const message = () => dialog.getByRole('alert').textContent();

    await create.click();
    expect(await message()).toBe(TEXTS.tagNameRequired);
    await name.fill('Much too long a name');
    expect(await message()).toBe(TEXTS.tagNameTooLong(TAG_NAME_MAX_LENGTH));
    await name.fill('Rock 🪨');
    expect(await message()).toBe('Use only standard characters (no emojis or special symbols)');
    await name.fill('Rock #1');
    expect(await message()).toBe('Use only standard characters (no emojis or special symbols)');
    await name.fill('Stone');
    expect(await message()).toBe("A tag with the name 'Stone' already exists");

    await name.fill(`Árbol, no? "1"`);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await create.click();
    await dialog.waitFor({ state: 'detached' });
    await tagButton(`Árbol, no? "1"`).waitFor();

    // Stored on the server: a fresh load lists it, black.
    await page.reload();
    await tagButton(`Árbol, no? "1"`).waitFor();
    await panel()
      .getByRole('button', { name: TAG_TEXTS.editTag('Árbol, no? "1"') })
      .click();
    expect(
      await page
        .getByRole('dialog', { name: TAG_TEXTS.editTitle })
        .getByLabel(TAG_TEXTS.colour)
        .inputValue(),
    ).toBe('#000000');
  });

  it('[T10] never flashes a duplicate-name error for the tag being created', async () => {
    const user = await newUser();
    await open(user);
    await panel().getByRole('button', { name: TAG_TEXTS.newTag }).click();
    const dialog = page.getByRole('dialog', { name: TAG_TEXTS.newTag });
    const shown = await recordTexts(dialog);
    await dialog.getByLabel(TAG_TEXTS.name).fill('Terrazo');
    await dialog.getByRole('button', { name: TAG_TEXTS.create }).click();
    await dialog.waitFor({ state: 'detached' });
    await tagButton('Terrazo').waitFor();
    expect((await shown()).filter((text) => text.includes('already exists'))).toEqual([]);
  });

  it('[T1][T10] edits a tag: its own name is no duplicate, another tag’s is', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-stone', name: 'Stone', color: '#777777' }, []);
    await tagImages(user, { id: 'tag-sand', name: 'Sand', color: '#e0c080' }, []);
    await open(user);

    await panel()
      .getByRole('button', { name: TAG_TEXTS.editTag('Stone') })
      .click();
    const dialog = page.getByRole('dialog', { name: TAG_TEXTS.editTitle });
    expect(await dialog.getByLabel(TAG_TEXTS.name).inputValue()).toBe('Stone');
    expect(await dialog.getByLabel(TAG_TEXTS.colour).inputValue()).toBe('#777777');
    await dialog.getByLabel(TAG_TEXTS.name).fill('Sand');
    await dialog.getByRole('button', { name: TAG_TEXTS.save }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe(
      "A tag with the name 'Sand' already exists",
    );

    // Its own name passes (a colour change alone).
    await dialog.getByLabel(TAG_TEXTS.name).fill('Stone');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByLabel(TAG_TEXTS.colour).fill('#224466');
    await dialog.getByRole('button', { name: TAG_TEXTS.save }).click();
    await dialog.waitFor({ state: 'detached' });

    await panel()
      .getByRole('button', { name: TAG_TEXTS.editTag('Stone') })
      .click();
    await page
      .getByRole('dialog', { name: TAG_TEXTS.editTitle })
      .getByLabel(TAG_TEXTS.name)
      .fill('Granite');
    await page
      .getByRole('dialog', { name: TAG_TEXTS.editTitle })
      .getByRole('button', { name: TAG_TEXTS.save })
      .click();
    await tagButton('Granite').waitFor();
    await page.reload();
    await tagButton('Granite').waitFor();
    await panel()
      .getByRole('button', { name: TAG_TEXTS.editTag('Granite') })
      .click();
    expect(
      await page
        .getByRole('dialog', { name: TAG_TEXTS.editTitle })
        .getByLabel(TAG_TEXTS.colour)
        .inputValue(),
    ).toBe('#224466');
  });

  it('[T1][T7] deletes a tag after confirmation, and it leaves every image that had it', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-rock', name: 'Rock', color: '#555555' }, [
      'stone.png',
      'sand.png',
    ]);
    await tagImages(user, { id: 'tag-green', name: 'Green', color: '#4f7a3a' }, ['moss.png']);
    await open(user);
    await page.getByRole('button', { name: 'List' }).click();
    const tagsOf = (filename: string) =>
      page.getByRole('row').filter({ hasText: filename }).getByRole('listitem').allTextContents();
    await expect.poll(() => tagsOf('stone.png')).toEqual(['Rock']);

    // Cancel keeps it.
    await panel()
      .getByRole('button', { name: TAG_TEXTS.deleteTag('Rock') })
      .click();
    await page
      .getByRole('dialog', { name: TAG_TEXTS.deleteTitle })
      .getByRole('button', { name: TAG_TEXTS.cancel })
      .click();
    await tagButton('Rock').waitFor();

    await panel()
      .getByRole('button', { name: TAG_TEXTS.deleteTag('Rock') })
      .click();
    const confirm = page.getByRole('dialog', { name: TAG_TEXTS.deleteTitle });
    expect(await confirm.textContent()).toContain('Rock');
    await confirm.getByRole('button', { name: TAG_TEXTS.delete }).click();
    await tagButton('Rock').waitFor({ state: 'detached' });
    expect(await tagsOf('stone.png')).toEqual([]);
    expect(await tagsOf('sand.png')).toEqual([]);
    expect(await tagsOf('moss.png')).toEqual(['Green']);

    await page.reload();
    await page.getByRole('table').waitFor();
    await expect.poll(() => tagsOf('moss.png')).toEqual(['Green']);
    expect(await tagsOf('stone.png')).toEqual([]);
    expect(await tagButton('Rock').count()).toBe(0);
  });

  it('[T2][T12] searches from the start ignoring accents and case (15 characters at most), and creates inline with a random colour', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-arbol', name: 'Árbol', color: '#2f6b2f' }, []);
    await tagImages(user, { id: 'tag-arena', name: 'arena', color: '#e0c080' }, []);
    await tagImages(user, { id: 'tag-mar', name: 'Mar', color: '#2255aa' }, []);
    await open(user);
    const search = panel().getByRole('searchbox', { name: TAG_TEXTS.search });
    const listed = () =>
      panel().getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents();

    await expect.poll(listed).toEqual(['Árbol', 'arena', 'Mar']);
    await search.fill('AR');
    expect(await listed()).toEqual(['Árbol', 'arena']);
    await search.fill('arb');
    expect(await listed()).toEqual(['Árbol']);
    await search.fill('bol');
    expect(await listed()).toEqual([]);
    await search.fill('');
    await search.pressSequentially('abcdefghijklmnopqrstu');
    expect(await search.inputValue()).toBe('abcdefghijklmno');

    await search.fill('Lichen');
    await panel()
      .getByRole('button', { name: TAG_TEXTS.createNamed('Lichen') })
      .click();
    await tagButton('Lichen').waitFor();
    await expect.poll(() => search.inputValue()).toBe('');
    await panel()
      .getByRole('button', { name: TAG_TEXTS.editTag('Lichen') })
      .click();
    const colour = await page
      .getByRole('dialog', { name: TAG_TEXTS.editTitle })
      .getByLabel(TAG_TEXTS.colour)
      .inputValue();
    expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('[T3][T4] filters by one tag and by two, and shows everything when none is enabled', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-rock', name: 'Rock', color: '#555555' }, ['stone.png']);
    await tagImages(user, { id: 'tag-warm', name: 'Warm', color: '#e08040' }, ['sand.png']);
    await tagImages(user, { id: 'tag-all', name: 'Ground', color: '#885522' }, [
      'stone.png',
      'sand.png',
    ]);
    await open(user);
    await expect.poll(shownImages).toEqual(['moss.png', 'sand.png', 'stone.png']);

    await tagButton('Rock').click();
    expect(await tagButton('Rock').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(shownImages).toEqual(['stone.png']);

    await tagButton('Warm').click();
    await expect.poll(shownImages).toEqual(['sand.png', 'stone.png']);

    await tagButton('Rock').click();
    expect(await tagButton('Rock').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(shownImages).toEqual(['sand.png']);

    await tagButton('Warm').click();
    await expect.poll(shownImages).toEqual(['moss.png', 'sand.png', 'stone.png']);

    // A tag on no shown image: the empty state.
    await commandOverMqtt(server, user, 'create-tag', {
      id: 'tag-none',
      name: 'Unused',
      color: '#000000',
    });
    await page.reload();
    await tagButton('Unused').click();
    await page.getByText('No se han encontrado imágenes.').waitFor();
  });

  it('[D7][T8][T12] assigns and unassigns tags from a grid tile', async () => {
    const user = await newUser();
    await tagImages(user, { id: 'tag-rock', name: 'Rock', color: '#555555' }, []);
    await tagImages(user, { id: 'tag-warm', name: 'Warm', color: '#e08040' }, []);
    await open(user);
    const tile = page
      .getByRole('list', { name: DASHBOARD_TEXTS.images })
      .getByRole('listitem')
      .filter({ has: page.getByRole('img', { name: 'sand.png' }) });
    const tileTags = () =>
      tile.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents();

    await tile.hover();
    await tile.getByRole('button', { name: GALLERY_TEXTS.assignTags('sand.png') }).click();
    const dialog = page.getByRole('dialog', { name: TAG_TEXTS.tagsOf('sand.png') });
    const rock = dialog.getByRole('checkbox', { name: 'Rock' });
    const warm = dialog.getByRole('checkbox', { name: 'Warm' });
    expect(await rock.isChecked()).toBe(false);
    await rock.check();
    await warm.check();
    await expect.poll(() => rock.isEnabled()).toBe(true);
    await expect.poll(() => warm.isEnabled()).toBe(true);
    expect(await rock.isChecked()).toBe(true);

    // Inline creation in the picker creates the tag and assigns it.
    await dialog.getByRole('searchbox', { name: TAG_TEXTS.search }).fill('Dune');
    await dialog.getByRole('button', { name: TAG_TEXTS.createNamed('Dune') }).click();
    const dune = dialog.getByRole('checkbox', { name: 'Dune' });
    await dune.waitFor();
    await expect.poll(() => dune.isChecked()).toBe(true);
    await expect.poll(() => dune.isEnabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(tileTags).toEqual(['Rock', 'Warm', 'Dune']);

    // The filter sees the local change at once.
    await tagButton('Rock').click();
    await expect.poll(shownImages).toEqual(['sand.png']);
    await tagButton('Rock').click();

    // Unassign.
    await tile.hover();
    await tile.getByRole('button', { name: GALLERY_TEXTS.assignTags('sand.png') }).click();
    await dialog.getByRole('checkbox', { name: 'Warm' }).uncheck();
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Warm' }).isEnabled()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: 'Warm' }).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: TAG_TEXTS.done }).click();
    await expect.poll(tileTags).toEqual(['Rock', 'Dune']);

    // And on the server.
    await page.reload();
    await expect.poll(tileTags, { timeout: 15_000 }).toEqual(['Rock', 'Dune']);
  });

  it('[T13] more than 10 tags are all listed (pages of 10)', async () => {
    const user = await newUser();
    for (let i = 1; i <= 23; i++) {
      await commandOverMqtt(server, user, 'create-tag', {
        id: `tag-${i}`,
        name: `Tag ${String(i).padStart(2, '0')}`,
        color: '#336699',
      });
    }
    await open(user);
    await expect
      .poll(() => panel().getByRole('list', { name: 'Tags' }).getByRole('listitem').count())
      .toBe(23);
  });
});
