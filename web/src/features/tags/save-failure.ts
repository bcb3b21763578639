import { errorText, MAX_TAGS_PER_USER } from '@tessera/contract';
import { CommandFailedError } from '../../lib/messaging';

const TAG_LIMIT = errorText('TAG_LIMIT_REACHED', MAX_TAGS_PER_USER);

/**
 * What a failed tag save shows. SPEC §8 keeps the server's texts off the screen; the tag cap is
 * ours (beyond the spec) and the one refusal a person can act on (delete a tag), so its text is
 * shown, and only when it is exactly that text; anything else gets `fallback`.
 */
export function tagSaveFailure(error: unknown, fallback: string): string {
  // Told by the server's own text; the message is that text in the language shown.
  return error instanceof CommandFailedError && error.response.error === TAG_LIMIT
    ? error.message
    : fallback;
}
