import { describe, expect, it } from 'vitest';
import { errorText, SERVER_ERRORS, serverError, type ServerErrorCode } from './errors.js';
import { TEXTS } from './texts.js';

const entries = Object.entries(SERVER_ERRORS) as [
  ServerErrorCode,
  { code: string; text: unknown },
][];

/** Each entry written out with sample values, as the server would send it. */
function writtenOut(): Map<ServerErrorCode, string> {
  return new Map(
    entries.map(([code, entry]) => [
      code,
      typeof entry.text === 'function'
        ? (entry.text as (...values: unknown[]) => string)('sample', 'sample')
        : String(entry.text),
    ]),
  );
}

describe('the server error table', () => {
  it('files every refusal under its own stable code', () => {
    expect(entries.length).toBeGreaterThan(30);
    for (const [key, entry] of entries) {
      expect(entry.code).toBe(key);
      expect(key).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    }
    const codes = entries.map(([, entry]) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('has a text for every code, and no text under two codes', () => {
    const texts = [...writtenOut().values()];
    for (const text of texts) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toContain('undefined');
    }
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('keeps the texts people and clients already read, word for word', () => {
    expect(errorText('NOT_SIGNED_IN')).toBe('Not signed in');
    expect(errorText('INVALID_CREDENTIALS')).toBe('Invalid username or password');
    expect(errorText('TOO_MANY_SIGN_INS', 30)).toBe(
      'Too many sign-in attempts. Try again in 30 seconds.',
    );
    expect(errorText('TAG_NOT_FOUND', 'tag-1')).toBe("Tag 'tag-1' not found");
    expect(errorText('COMMAND_TOO_LARGE')).toBe('The command is larger than 65536 bytes');
    expect(errorText('IMAGE_GONE', 'a.png')).toBe("The image 'a.png' no longer exists");
    expect(errorText('PREVIEW_QUEUE_FULL', 20)).toBe(
      'You already have 20 previews waiting. Wait for them to finish before starting more.',
    );
  });

  it('takes the spec texts the server sends from the spec table, not a copy', () => {
    expect(errorText('TAG_NAME_TAKEN', 'Stone')).toBe(TEXTS.tagDuplicate('Stone'));
    expect(errorText('UPLOAD_TOO_LARGE')).toBe(TEXTS.uploadTooLarge);
  });

  it('writes a refusal out with its code', () => {
    expect(serverError('UNKNOWN_ACTION', 'fly')).toEqual({
      code: 'UNKNOWN_ACTION',
      text: "Unknown action 'fly'",
    });
    expect(SERVER_ERRORS.TAG_NAME_TAKEN.text('Stone')).toBe(
      "A tag with the name 'Stone' already exists",
    );
  });
});
