import { describe, expect, it } from 'vitest';
import {
  brokerUrlResponseSchema,
  errorResponseSchema,
  generationStatusResponseSchema,
  isValidUsername,
  loginRequestSchema,
  sessionResponseSchema,
  themeResponseSchema,
  titleResponseSchema,
} from './http.js';

describe('HTTP shapes', () => {
  it('[B1] [B2] [B3] reads title, theme and broker url', () => {
    expect(titleResponseSchema.parse({ title: 'Tessera' })).toEqual({ title: 'Tessera' });
    expect(themeResponseSchema.parse({ theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(brokerUrlResponseSchema.parse({ url: 'ws://h/mqtt' }).url).toBe('ws://h/mqtt');
    expect(titleResponseSchema.safeParse({}).success).toBe(false);
  });

  it('reads the broker protocol version, MQTT 3.1.1 when the answer leaves it out', () => {
    expect(brokerUrlResponseSchema.parse({ url: 'ws://h/mqtt' })).toEqual({
      url: 'ws://h/mqtt',
      protocolVersion: 4,
    });
    expect(brokerUrlResponseSchema.parse({ url: 'ws://h/mqtt', protocolVersion: 5 })).toEqual({
      url: 'ws://h/mqtt',
      protocolVersion: 5,
    });
    expect(
      brokerUrlResponseSchema.safeParse({ url: 'ws://h/mqtt', protocolVersion: 3 }).success,
    ).toBe(false);
  });

  it('reads who the session belongs to', () => {
    expect(sessionResponseSchema.parse({ username: 'alice' })).toEqual({ username: 'alice' });
    expect(sessionResponseSchema.safeParse({}).success).toBe(false);
  });

  it('[L2] takes a login of username up to 64 and password up to 1024 characters', () => {
    const ok = (username: string, password: string) =>
      loginRequestSchema.safeParse({ username, password }).success;
    expect(ok('a'.repeat(64), 'p'.repeat(1024))).toBe(true);
    expect(ok('a'.repeat(65), 'p')).toBe(false);
    expect(ok('a', 'p'.repeat(1025))).toBe(false);
    expect(ok('', 'p')).toBe(false);
    expect(ok('a', '')).toBe(false);
  });

  it('[L3] reads the error text of a failed request', () => {
    expect(errorResponseSchema.parse({ error: 'Invalid credentials' }).error).toBe(
      'Invalid credentials',
    );
  });

  it('[P2] [P3] [P4] reads a generation status with its percent and output image', () => {
    expect(
      generationStatusResponseSchema.parse({
        status: 'finished',
        percent: 100,
        output_image: 'a.png',
      }),
    ).toEqual({ status: 'finished', percent: 100, output_image: 'a.png' });
    expect(generationStatusResponseSchema.parse({ status: 'queued', percent: 0 })).toEqual({
      status: 'queued',
      percent: 0,
    });
    expect(generationStatusResponseSchema.safeParse({ status: 'done', percent: 0 }).success).toBe(
      false,
    );
    expect(
      generationStatusResponseSchema.safeParse({ status: 'in_progress', percent: 101 }).success,
    ).toBe(false);
  });

  it('[A2] keeps usernames safe as a topic level', () => {
    for (const name of ['alice', 'A.b-c_9', 'a'.repeat(64), '...', '.a', 'a..']) {
      expect(isValidUsername(name), name).toBe(true);
    }
    for (const name of ['', 'a/b', 'a+', '#', '$SYS', 'a b', 'ñ', 'a'.repeat(65), '.', '..']) {
      expect(isValidUsername(name), name).toBe(false);
    }
  });
});
