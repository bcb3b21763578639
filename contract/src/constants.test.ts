import { describe, expect, it } from 'vitest';
import {
  IMAGE_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MQTT_CONNECT_TIMEOUT_MS,
  MQTT_RESPONSE_TIMEOUT_MS,
  POLL_INTERVAL_MS,
  TAG_PAGE_SIZE,
} from './constants.js';

describe('business constants', () => {
  it('[D12] lists images in pages of 100', () => {
    expect(IMAGE_PAGE_SIZE).toBe(100);
  });

  it('[T13] lists tags in pages of 10', () => {
    expect(TAG_PAGE_SIZE).toBe(10);
  });

  it('caps a requested page at 500 items, above both page sizes', () => {
    expect(MAX_PAGE_SIZE).toBe(500);
  });

  it('[G13] [H11] polls every 3 seconds', () => {
    expect(POLL_INTERVAL_MS).toBe(3000);
  });

  it('[Q6] times a messaging request out after 50000 ms', () => {
    expect(MQTT_RESPONSE_TIMEOUT_MS).toBe(50_000);
  });

  it('[B5] connects with a 4000 ms timeout', () => {
    expect(MQTT_CONNECT_TIMEOUT_MS).toBe(4000);
  });
});
