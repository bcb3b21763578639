// @vitest-environment jsdom
import { TAG_TEXTS } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessagingProvider } from '../../lib/messaging';
import type { RequestClient } from '../../lib/messaging';
import { useTagFilter } from './tag-filter';
import { TagsPanel } from './tags-panel';
import { useTags } from './use-tags';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

interface Sent {
  action: string;
  fields: Record<string, unknown>;
  answer: (ok: boolean) => void;
}

/** The server's side of a tag command the test agreed to: the list it answers changes. */
function applyToList(tags: Tag[], action: string, fields: Record<string, unknown>): Tag[] {
  const tag = { id: fields.id, name: fields.name, color: fields.color } as Tag;
  if (action === 'create-tag') return [...tags, tag];
  if (action === 'update-tag') return tags.map((t) => (t.id === tag.id ? tag : t));
  if (action === 'delete-tag') return tags.filter((t) => t.id !== tag.id);
  return tags;
}

/** A request client whose tag commands wait until the test answers them, as the server would. */
function fakeClient(initialTags: Tag[]) {
  let tags = initialTags;
  const sent: Sent[] = [];
  const client = {
    user: 'ana',
    request: vi.fn((action: string, fields: Record<string, unknown>) => {
      if (action === 'list-tag') {
        return Promise.resolve({
          transactionid: 't',
          user: 'ana',
          success: true,
          page: 1,
          size: 10,
          total: tags.length,
          tags,
        });
      }
      return new Promise((resolve, reject) => {
        sent.push({
          action,
          fields,
          answer: (ok) => {
            if (!ok) return reject(new Error('refused'));
            tags = applyToList(tags, action, fields);
            resolve({ transactionid: 't', user: 'ana', success: true, id: fields.id });
          },
        });
      });
    }),
    sendHdCommand: vi.fn(),
    onHdStatus: vi.fn(() => () => undefined),
    dispose: vi.fn(),
  };
  return { client: client as unknown as RequestClient, sent };
}

/** The command of that action the panel sent; fails the test when there is none. */
function sentCommand(sent: Sent[], action: string): Sent {
  const command = sent.find((s) => s.action === action);
  if (!command) throw new Error(`no ${action} was sent`);
  return command;
}

/** The list item of a tag's row. */
function rowOf(element: HTMLElement): HTMLElement {
  const row = element.closest('li');
  if (!row) throw new Error('not in a row');
  return row;
}

function Panel() {
  const { tags } = useTags();
  return <TagsPanel filter={useTagFilter(tags)} />;
}

function renderPanel(tags: Tag[]) {
  const { client, sent } = fakeClient(tags);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <MessagingProvider client={client}>{children}</MessagingProvider>
    </QueryClientProvider>
  );
  render(wrap(<Panel />));
  return { sent, user: userEvent.setup() };
}

const STONE: Tag = { id: 'stone', name: 'Stone', color: '#777777' };
const SAND: Tag = { id: 'sand', name: 'Sand', color: '#e0c080' };

describe('the Tags panel', () => {
  it('[T1][T5][T6] a created tag gets a client-made id and shows loading until the server agrees', async () => {
    const { user, sent } = renderPanel([STONE]);
    await screen.findByRole('button', { name: 'Stone' });
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.newTag }));
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Brick');
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.create }));

    const row = rowOf(await screen.findByRole('button', { name: 'Brick' }));
    expect(row.getAttribute('aria-busy')).toBe('true');
    expect(within(row).getByRole('status', { name: TAG_TEXTS.saving('Brick') })).toBeTruthy();
    const create = sentCommand(sent, 'create-tag');
    expect(create.fields).toMatchObject({ name: 'Brick', color: '#000000' });
    expect(create.fields.id).toMatch(/^[0-9a-f-]{36}$/);

    create.answer(true);
    await waitFor(() => expect(row.getAttribute('aria-busy')).toBe('false'));
  });

  it('[T6] a tag whose creation failed leaves the list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, sent } = renderPanel([]);
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.newTag }));
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Brick');
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.create }));
    await screen.findByRole('button', { name: 'Brick' });
    sentCommand(sent, 'create-tag').answer(false);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Brick' })).toBeNull());
  });

  it('[T12] a tag created inline from the search text gets a random hex colour', async () => {
    const { user, sent } = renderPanel([STONE]);
    await screen.findByRole('button', { name: 'Stone' });
    await user.type(screen.getByRole('searchbox', { name: TAG_TEXTS.search }), 'Moss');
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.createNamed('Moss') }));
    const create = sentCommand(sent, 'create-tag');
    expect(create.fields.name).toBe('Moss');
    expect(create.fields.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('[T2] search matches from the start, ignoring accents and case, capped at 15 characters', async () => {
    const { user } = renderPanel([STONE, SAND, { id: 'arbol', name: 'Árbol', color: '#0a0' }]);
    await screen.findByRole('button', { name: 'Stone' });
    const search = screen.getByRole('searchbox', { name: TAG_TEXTS.search });
    await user.type(search, 'ar');
    expect(screen.getByRole('button', { name: 'Árbol' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sand' })).toBeNull();
    await user.clear(search);
    await user.type(search, 'TONE');
    expect(screen.queryByRole('button', { name: 'Stone' })).toBeNull();
    await user.clear(search);
    await user.type(search, 'abcdefghijklmnopqrst');
    expect((search as HTMLInputElement).value).toBe('abcdefghijklmno');
  });

  it('[T3] clicking a tag toggles it as a filter', async () => {
    const { user } = renderPanel([STONE, SAND]);
    const stone = await screen.findByRole('button', { name: 'Stone' });
    expect(stone.getAttribute('aria-pressed')).toBe('false');
    await user.click(stone);
    expect(stone.getAttribute('aria-pressed')).toBe('true');
    await user.click(stone);
    expect(stone.getAttribute('aria-pressed')).toBe('false');
  });

  it('[T1][T6] delete asks first, then the tag shows loading and goes once deleted', async () => {
    const { user, sent } = renderPanel([STONE, SAND]);
    await screen.findByRole('button', { name: 'Stone' });
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.deleteTag('Stone') }));
    expect(sent.some((s) => s.action === 'delete-tag')).toBe(false);
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.delete }));
    const row = rowOf(screen.getByRole('button', { name: 'Stone' }));
    expect(row.getAttribute('aria-busy')).toBe('true');
    const command = sentCommand(sent, 'delete-tag');
    expect(command.fields).toEqual({ id: 'stone' });
    command.answer(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stone' })).toBeNull());
  });

  it('[T1][T6] edit saves the new name once the server agrees', async () => {
    const { user, sent } = renderPanel([STONE]);
    await screen.findByRole('button', { name: 'Stone' });
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.editTag('Stone') }));
    const name = screen.getByLabelText(TAG_TEXTS.name);
    await user.clear(name);
    await user.type(name, 'Granite');
    await user.click(screen.getByRole('button', { name: TAG_TEXTS.save }));
    const command = sentCommand(sent, 'update-tag');
    expect(command.fields).toEqual({ id: 'stone', name: 'Granite', color: '#777777' });
    expect(rowOf(screen.getByRole('button', { name: 'Stone' })).getAttribute('aria-busy')).toBe(
      'true',
    );
    command.answer(true);
    await screen.findByRole('button', { name: 'Granite' });
  });
});
