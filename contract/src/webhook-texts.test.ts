import { describe, expect, it } from 'vitest';
import { WEBHOOK_TEXTS, WEBHOOK_TEXTS_EN, WEBHOOKS_SCREEN_PATH } from './webhook-texts.js';
import { isWebhookUrl, webhookCreateSchema, webhookPayloadSchema } from './webhooks.js';
import { API_PREFIX, SCREEN_PATHS } from './routes.js';

/** Every key of a texts object, nested ones as `a.b`, with whether its value is empty. */
function keysOf(texts: object, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keysOf(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe('the webhook texts', () => {
  it('have every text in Spanish and in English, none empty', () => {
    expect(keysOf(WEBHOOK_TEXTS_EN)).toEqual(keysOf(WEBHOOK_TEXTS));
    for (const texts of [WEBHOOK_TEXTS, WEBHOOK_TEXTS_EN]) {
      const walk = (value: unknown): void => {
        if (typeof value === 'string') expect(value.trim()).not.toBe('');
        else if (typeof value === 'function') expect(String(value(1, 'x'))).not.toBe('');
        else if (value && typeof value === 'object') Object.values(value).forEach(walk);
      };
      walk(texts);
    }
  });

  it('put the screen outside the API and apart from the spec screens', () => {
    expect(WEBHOOKS_SCREEN_PATH.startsWith(API_PREFIX)).toBe(false);
    expect(Object.values(SCREEN_PATHS)).not.toContain(WEBHOOKS_SCREEN_PATH);
  });
});

describe('webhook shapes', () => {
  it('take http(s) URLs without credentials only', () => {
    expect(isWebhookUrl('https://hooks.example.test/tessera')).toBe(true);
    expect(isWebhookUrl('http://127.0.0.1:9000/x')).toBe(true);
    expect(isWebhookUrl('ftp://example.test/')).toBe(false);
    expect(isWebhookUrl('https://user:pw@example.test/')).toBe(false);
    expect(isWebhookUrl('not a url')).toBe(false);
    expect(isWebhookUrl(`https://example.test/${'a'.repeat(2000)}`)).toBe(false);
  });

  it('need at least one known event, and default to active and own', () => {
    expect(webhookCreateSchema.safeParse({ url: 'https://a.test/', events: [] }).success).toBe(
      false,
    );
    expect(
      webhookCreateSchema.safeParse({ url: 'https://a.test/', events: ['image.deleted'] }).success,
    ).toBe(false);
    expect(webhookCreateSchema.parse({ url: 'https://a.test/', events: ['hd.finished'] })).toEqual({
      url: 'https://a.test/',
      events: ['hd.finished'],
      active: true,
      scope: 'own',
    });
  });

  it('read a payload by its type', () => {
    const payload = {
      type: 'hd.failed',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { user: 'ana', jobId: 'j', image: 'a.png', size: '30x30', error: 'No' },
    };
    expect(webhookPayloadSchema.parse(payload)).toEqual(payload);
    expect(webhookPayloadSchema.safeParse({ ...payload, type: 'hd.finished' }).success).toBe(false);
  });
});
