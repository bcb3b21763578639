import { randomTagColor, TEXT_BUNDLES, validateTagName } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import { useState } from 'react';
import { currentTexts } from '../../lib/i18n';
import { tagSaveFailure } from './save-failure';
import { useTagCommands } from './use-tag-commands';

/**
 * Creating a tag straight from what was typed in a search box, with a random colour (checklist
 * T12). Offered when the text names no existing tag; the name rule applies as in the dialog.
 */
export function useInlineCreate(tags: readonly Tag[], search: string) {
  const commands = useTagCommands();
  const [error, setError] = useState<{ for: string; text: string } | null>(null);
  const name = search.trim().normalize('NFC');
  const offered = name !== '' && !tags.some((tag) => tag.name.normalize('NFC') === name);

  async function create(): Promise<Tag | undefined> {
    const problem = validateTagName(
      name,
      tags.map((tag) => tag.name),
    );
    if (problem) {
      setError({ for: name, text: problem });
      return undefined;
    }
    setError(null);
    try {
      return await commands.create({ name, color: randomTagColor() });
    } catch (err) {
      const text = tagSaveFailure(err, currentTexts(TEXT_BUNDLES.tags).createFailed);
      setError({ for: name, text });
      return undefined;
    }
  }

  // An error belongs to the text it was about: typing something else clears it.
  return { name, offered, error: error?.for === name ? error.text : undefined, create };
}
