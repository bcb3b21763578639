// @vitest-environment jsdom
import { errorText, MAX_TAGS_PER_USER, shownErrorText, TAG_TEXTS, TEXTS } from '@tessera/contract';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandFailedError } from '../../lib/messaging';
import { TagFormDialog } from './tag-form-dialog';

afterEach(cleanup);

function renderForm(props: Partial<Parameters<typeof TagFormDialog>[0]> = {}) {
  const onSubmit = vi.fn(() => Promise.resolve());
  const onClose = vi.fn();
  render(
    <TagFormDialog
      title="New tag"
      submitLabel="Create"
      initial={{ name: '', color: '#000000' }}
      existingNames={['Stone', 'Wood']}
      onSubmit={onSubmit}
      onClose={onClose}
      {...props}
    />,
  );
  return { onSubmit, onClose, user: userEvent.setup() };
}

describe('the tag form', () => {
  it('[T12] the create dialog starts with the colour #000000', () => {
    renderForm();
    expect(screen.getByLabelText<HTMLInputElement>(TAG_TEXTS.colour).value).toBe('#000000');
  });

  it('[T9] an empty name is refused', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.tagNameRequired);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('[T9] a name over 15 characters is refused', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'abcdefghijklmnop');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert').textContent).toBe(TEXTS.tagNameTooLong(15));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("[T9] emojis and symbols give 'Use only standard characters (no emojis or special symbols)'", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Rock 🙂');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Use only standard characters (no emojis or special symbols)',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('[T9] letters, digits, accents, space and . , ! ? \' " - are accepted', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(TAG_TEXTS.name), `Ñú 1.,!?'"-`);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onSubmit).toHaveBeenCalledWith({ name: `Ñú 1.,!?'"-`, color: '#000000' });
  });

  it('[T10] an existing name gives "A tag with the name \'<tag name>\' already exists"', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Stone');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert').textContent).toBe(
      "A tag with the name 'Stone' already exists",
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('[T10] on edit the tag may keep its own name', async () => {
    const { user, onSubmit } = renderForm({
      title: 'Edit tag',
      submitLabel: 'Save',
      initial: { name: 'Stone', color: '#336699' },
      currentName: 'Stone',
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Stone', color: '#336699' });
  });

  it('[T10] on edit another tag’s name is still a duplicate', async () => {
    const { user } = renderForm({
      title: 'Edit tag',
      submitLabel: 'Save',
      initial: { name: 'Stone', color: '#336699' },
      currentName: 'Stone',
    });
    await user.clear(screen.getByLabelText(TAG_TEXTS.name));
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Wood');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe("A tag with the name 'Wood' already exists");
  });

  it('[T11] keeps a colour the picker cannot show unless it is changed', async () => {
    const { user, onSubmit } = renderForm({
      initial: { name: 'Sky', color: 'skyblue' },
      currentName: 'Sky',
      submitLabel: 'Save',
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Sky', color: 'skyblue' });
  });

  it('closes after saving, and stays open with a message when saving failed', async () => {
    const { user, onClose } = renderForm({ onSubmit: () => Promise.reject(new Error('no')) });
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Brick');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe(TAG_TEXTS.saveFailed);
  });

  it("shows the server's text when the tag cap refused the tag, and only then (issue 22, part 4)", async () => {
    const limit = errorText('TAG_LIMIT_REACHED', MAX_TAGS_PER_USER);
    const refused = new CommandFailedError('create-tag', {
      transactionid: 't',
      user: 'alice',
      success: false,
      error: limit,
    });
    const { user } = renderForm({ onSubmit: () => Promise.reject(refused) });
    await user.type(screen.getByLabelText(TAG_TEXTS.name), 'Brick');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      shownErrorText('es', 'TAG_LIMIT_REACHED', MAX_TAGS_PER_USER),
    );
  });
});
