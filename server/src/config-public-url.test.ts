import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const EXTERNAL = { MQTT_USERNAME: 's', MQTT_PASSWORD: 'p' };

describe('serving over HTTPS: PUBLIC_URL, TRUST_PROXY, PUBLIC_MQTT_URL (issue 23, part 1)', () => {
  it('makes cookies Secure and sends HSTS only when PUBLIC_URL is https', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://tiles.example' }).httpsOnly).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://studio.lan:8080' }).httpsOnly).toBeUndefined();
    expect(loadConfig({}).httpsOnly).toBeUndefined();
  });

  it('reads TRUST_PROXY, and believes no forwarded header without it', () => {
    expect(loadConfig({}).trustedProxies).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustedProxies).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxies).toEqual({ all: true });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustedProxies).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,::1' }).trustedProxies).toEqual({
      addresses: ['127.0.0.1', '::1'],
    });
  });

  it.each(['yes', 'proxy.example', '10.0.0.0/40', '0'])(
    'stops the start on TRUST_PROXY=%s, naming it',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        new RegExp(`TRUST_PROXY must be true, false, a number .*\\(got '${value}'\\)`),
      );
    },
  );

  it('stops the start on a PUBLIC_URL with a path', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://example.com/tiles' })).toThrow(
      /PUBLIC_URL must be an origin only/,
    );
  });

  it('honours PUBLIC_MQTT_URL on the embedded broker', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://tiles.example',
      PUBLIC_MQTT_URL: 'wss://live.tiles.example/mqtt',
    });
    expect(config.embeddedBrokerPublicUrl).toBe('wss://live.tiles.example/mqtt');
    expect(config.externalBroker).toBeUndefined();
  });

  it('refuses a ws:// broker address for an https page (mixed content), naming PUBLIC_MQTT_URL', () => {
    expect(() =>
      loadConfig({
        PUBLIC_URL: 'https://tiles.example',
        PUBLIC_MQTT_URL: 'ws://tiles.example/mqtt',
      }),
    ).toThrow(/PUBLIC_MQTT_URL must be a wss:\/\/ address when PUBLIC_URL is https/);
    expect(() =>
      loadConfig({
        ...EXTERNAL,
        PUBLIC_URL: 'https://tiles.example',
        MQTT_URL: 'ws://broker:8083',
      }),
    ).toThrow(/PUBLIC_MQTT_URL is required \(a wss:\/\/ address\) when PUBLIC_URL is https/);
    expect(
      loadConfig({
        ...EXTERNAL,
        PUBLIC_URL: 'https://tiles.example',
        MQTT_URL: 'mqtt://broker:1883',
        PUBLIC_MQTT_URL: 'wss://tiles.example/mqtt',
      }).externalBroker?.publicUrl,
    ).toBe('wss://tiles.example/mqtt');
    expect(
      loadConfig({ PUBLIC_URL: 'http://studio.lan', PUBLIC_MQTT_URL: 'ws://studio.lan/mqtt' })
        .embeddedBrokerPublicUrl,
    ).toBe('ws://studio.lan/mqtt');
  });
});
