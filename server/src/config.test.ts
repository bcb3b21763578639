import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BROKER_LIMITS } from './broker/limits.js';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('needs nothing: every variable has a working default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      title: 'Tessera',
      theme: 'default',
      logLevel: 'info',
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.externalBroker).toBeUndefined();
  });

  it('reads the variables it is given', () => {
    const config = loadConfig({
      PORT: '9090',
      DATA_DIR: '/tmp/x',
      TITLE: 'Tiles',
      THEME: 'terracotta',
    });
    expect(config).toMatchObject({
      port: 9090,
      dataDir: '/tmp/x',
      title: 'Tiles',
      theme: 'terracotta',
    });
  });

  it('[#12] reads the broker limits, with defaults that let one user open several tabs', () => {
    expect(loadConfig({}).brokerLimits).toEqual(DEFAULT_BROKER_LIMITS);
    expect(DEFAULT_BROKER_LIMITS.connectionsPerUser).toBeGreaterThanOrEqual(8);
    expect(
      loadConfig({
        MQTT_PUBLISH_RATE: '5',
        MQTT_PUBLISH_BURST: '10',
        MQTT_MAX_CONNECTIONS_PER_USER: '3',
        MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS: '7',
        MQTT_CONNECT_TIMEOUT_MS: '2000',
      }).brokerLimits,
    ).toEqual({
      publishPerSecond: 5,
      publishBurst: 10,
      connectionsPerUser: 3,
      unauthenticatedPerAddress: 7,
      connectTimeoutMs: 2000,
    });
    expect(() => loadConfig({ MQTT_MAX_CONNECTIONS_PER_USER: '0' })).toThrow(
      /MQTT_MAX_CONNECTIONS_PER_USER must be a whole number from 1 to 10000/,
    );
    expect(() => loadConfig({ MQTT_PUBLISH_RATE: 'fast' })).toThrow(/MQTT_PUBLISH_RATE/);
  });

  it('reads the ComfyUI proxy authentication and timeouts, with defaults', () => {
    const plain = loadConfig({ ENGINE: 'comfyui', COMFYUI_URLS: 'https://gpu-1/comfy/' });
    expect(plain.comfyui).toEqual({
      urls: ['https://gpu-1/comfy/'],
      auth: {},
      requestTimeoutMs: 15_000,
      socketTimeoutMs: 15_000,
      transferIdleTimeoutMs: 60_000,
      promptDeadlineMs: 1_800_000,
    });
    const set = loadConfig({
      ENGINE: 'comfyui',
      COMFYUI_URLS: 'https://gpu-1/',
      COMFYUI_AUTH_HEADER: 'X-API-Key: s3cr=t value',
      COMFYUI_BEARER_TOKEN: 'tok',
      COMFYUI_QUERY_TOKEN: 'token=abc=',
      COMFYUI_REQUEST_TIMEOUT_MS: '5000',
      COMFYUI_SOCKET_TIMEOUT_MS: '6000',
      COMFYUI_TRANSFER_IDLE_TIMEOUT_MS: '120000',
      COMFYUI_PROMPT_DEADLINE_MS: '0',
    });
    expect(set.comfyui).toMatchObject({
      auth: {
        header: { name: 'X-API-Key', value: 's3cr=t value' },
        bearerToken: 'tok',
        queryToken: { name: 'token', value: 'abc=' },
      },
      requestTimeoutMs: 5000,
      socketTimeoutMs: 6000,
      transferIdleTimeoutMs: 120_000,
      promptDeadlineMs: 0,
    });
    expect(() =>
      loadConfig({ ENGINE: 'comfyui', COMFYUI_URLS: 'http://x/', COMFYUI_AUTH_HEADER: 'nocolon' }),
    ).toThrow("COMFYUI_AUTH_HEADER must be 'Header-Name: value'");
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', MQTT_URL: '' }).port).toBe(8080);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['THEME', '../etc'],
    ['MQTT_URL', 'http://broker'],
    ['PUBLIC_MQTT_URL', 'mqtt://broker:1883'],
    ['LOG_LEVEL', 'loud'],
    ['ENGINE', 'dalle'],
    ['JOB_CONCURRENCY', '0'],
    ['JOB_CONCURRENCY', 'many'],
  ])('refuses %s=%s with a message naming the variable and the value', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [key]: value })).toThrow(
      new RegExp(`${key} .*\\(got '${value.replace('.', '\\.')}'\\)`),
    );
  });

  it('requires the service login and a browser address with an external broker', () => {
    expect(() => loadConfig({ MQTT_URL: 'mqtt://broker:1883' })).toThrow(
      /MQTT_USERNAME .*required/,
    );
    expect(() =>
      loadConfig({ MQTT_URL: 'mqtt://broker:1883', MQTT_USERNAME: 's', MQTT_PASSWORD: 'p' }),
    ).toThrow(/PUBLIC_MQTT_URL is required/);
    const config = loadConfig({
      MQTT_URL: 'mqtt://broker:1883',
      MQTT_USERNAME: 's',
      MQTT_PASSWORD: 'p',
      PUBLIC_MQTT_URL: 'wss://tiles.example/mqtt',
    });
    expect(config.externalBroker).toEqual({
      url: 'mqtt://broker:1883',
      username: 's',
      password: 'p',
      publicUrl: 'wss://tiles.example/mqtt',
      publicProtocolVersion: 5,
    });
  });

  it('tells browsers MQTT 5 on an external broker unless told 4, and 3.1.1 on the embedded one', () => {
    const external = {
      MQTT_URL: 'ws://broker:9001',
      MQTT_USERNAME: 's',
      MQTT_PASSWORD: 'p',
    };
    expect(loadConfig(external).externalBroker?.publicProtocolVersion).toBe(5);
    expect(
      loadConfig({ ...external, PUBLIC_MQTT_PROTOCOL_VERSION: '4' }).externalBroker
        ?.publicProtocolVersion,
    ).toBe(4);
    expect(() => loadConfig({ ...external, PUBLIC_MQTT_PROTOCOL_VERSION: '3' })).toThrow(
      /PUBLIC_MQTT_PROTOCOL_VERSION must be 4 \(MQTT 3\.1\.1\) or 5/,
    );
    expect(() => loadConfig({ PUBLIC_MQTT_PROTOCOL_VERSION: '5' })).toThrow(
      /PUBLIC_MQTT_PROTOCOL_VERSION cannot be 5 without MQTT_URL/,
    );
    expect(loadConfig({ PUBLIC_MQTT_PROTOCOL_VERSION: '4' }).externalBroker).toBeUndefined();
  });
});
