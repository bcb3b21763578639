import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BROKER_LIMITS } from './broker/limits.js';
import { ConfigError, defaultInstanceName, loadConfig } from './config.js';

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

  it('takes the default storage quota in decimal GB, fractions too; unset is no limit', () => {
    expect(loadConfig({}).storageQuotaBytes).toBeUndefined();
    expect(loadConfig({ STORAGE_QUOTA_GB: '0.5' }).storageQuotaBytes).toBe(500_000_000);
    expect(loadConfig({ STORAGE_QUOTA_GB: '5' }).storageQuotaBytes).toBe(5_000_000_000);
    expect(() => loadConfig({ STORAGE_QUOTA_GB: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_QUOTA_GB: 'lots' })).toThrow(/STORAGE_QUOTA_GB/);
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
      outageWindowMs: 300_000,
      failingAfter: 3,
      failingPauseMs: 60_000,
      probeBackoffMs: 1000,
      probeBackoffMaxMs: 15_000,
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
      COMFYUI_OUTAGE_WINDOW_MS: '600000',
      COMFYUI_FAILING_AFTER: '5',
      COMFYUI_FAILING_PAUSE_MS: '300000',
      COMFYUI_PROBE_BACKOFF_MS: '500',
      COMFYUI_PROBE_BACKOFF_MAX_MS: '5000',
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
      outageWindowMs: 600_000,
      failingAfter: 5,
      failingPauseMs: 300_000,
      probeBackoffMs: 500,
      probeBackoffMaxMs: 5000,
    });
    expect(() =>
      loadConfig({ ENGINE: 'comfyui', COMFYUI_URLS: 'http://x/', COMFYUI_FAILING_AFTER: '0' }),
    ).toThrow('COMFYUI_FAILING_AFTER must be a whole number from 1 to 1000');
    const comfy = { ENGINE: 'comfyui', COMFYUI_URLS: 'http://x/' };
    expect(() => loadConfig({ ...comfy, COMFYUI_FAILING_PAUSE_MS: '500' })).toThrow(
      'COMFYUI_FAILING_PAUSE_MS must be a whole number from 1000 to 86400000',
    );
    expect(() => loadConfig({ ...comfy, COMFYUI_PROBE_BACKOFF_MS: '1.5' })).toThrow(
      'COMFYUI_PROBE_BACKOFF_MS must be a whole number from 100 to 600000',
    );
    expect(() => loadConfig({ ...comfy, COMFYUI_PROBE_BACKOFF_MAX_MS: '700000' })).toThrow(
      'COMFYUI_PROBE_BACKOFF_MAX_MS must be a whole number from 100 to 600000',
    );
    expect(() =>
      loadConfig({
        ...comfy,
        COMFYUI_PROBE_BACKOFF_MS: '20000',
      }),
    ).toThrow(
      'COMFYUI_PROBE_BACKOFF_MAX_MS must be at least COMFYUI_PROBE_BACKOFF_MS (20000): the pause before a down ComfyUI server is asked again grows from that to this',
    );
    expect(() =>
      loadConfig({ ENGINE: 'comfyui', COMFYUI_URLS: 'http://x/', COMFYUI_AUTH_HEADER: 'nocolon' }),
    ).toThrow("COMFYUI_AUTH_HEADER must be 'Header-Name: value'");
  });

  it('keeps files in DATA_DIR without FILES_URL, in a bucket with it', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ FILES_URL: 's3://tiles' }).s3).toEqual({
      bucket: 'tiles',
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        FILES_URL: 's3://tiles.bucket/prod/tessera/',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).s3,
    ).toEqual({
      bucket: 'tiles.bucket',
      prefix: 'prod/tessera',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(
      loadConfig({
        FILES_URL: 's3://tiles',
        S3_ENDPOINT: 'https://s3.example',
        S3_FORCE_PATH_STYLE: 'false',
      }).s3?.forcePathStyle,
    ).toBe(false);
  });

  it('refuses S3 settings that cannot work, naming the variable', () => {
    expect(() => loadConfig({ FILES_URL: 's3://tiles', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_SECRET_ACCESS_KEY S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_ENDPOINT is only used with FILES_URL/,
    );
  });

  it('[#16] reads the PostgreSQL database and its pool size; unset: SQLite in DATA_DIR', () => {
    const sqlite = loadConfig({});
    expect(sqlite.databaseUrl).toBeUndefined();
    expect(sqlite.databasePoolSize).toBe(10);
    const postgres = loadConfig({
      DATABASE_URL: 'postgresql://tessera:secret@db:5432/tessera',
      DATABASE_POOL_SIZE: '25',
    });
    expect(postgres.databaseUrl).toBe('postgresql://tessera:secret@db:5432/tessera');
    expect(postgres.databasePoolSize).toBe(25);
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/t' }).databaseUrl).toBe(
      'postgres://127.0.0.1/t',
    );
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(
      /DATABASE_POOL_SIZE must be a whole number from 1 to 1000/,
    );
  });

  it('[#16] refuses a DATABASE_URL that is not PostgreSQL, without echoing it (a password)', () => {
    for (const url of ['mysql://u:secret@db/t', 'secret', 'sqlite:///data/t.sqlite']) {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
        /DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//,
      );
      expect(() => loadConfig({ DATABASE_URL: url })).not.toThrow(/secret/);
    }
  });

  it('takes PUBLIC_URL as the origin state changes may come from, naming a bad one (issue 22, part 1)', () => {
    expect(loadConfig({}).publicOrigin).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'https://Tiles.Example:443/' }).publicOrigin).toBe(
      'https://tiles.example',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://studio.lan:8080' }).publicOrigin).toBe(
      'http://studio.lan:8080',
    );
    expect(() => loadConfig({ PUBLIC_URL: 'https://tiles.example/tessera' })).toThrow(
      "PUBLIC_URL must be an origin only (https://host or https://host:port), without a path (got 'https://tiles.example/tessera')",
    );
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://tiles.example' })).toThrow(
      'PUBLIC_URL must be an address starting with http:// or https://',
    );
  });

  it('gives HTTP requests deadlines, settable, the head within the whole (issue 22, part 6)', () => {
    expect(loadConfig({}).httpDeadlines).toEqual({
      headersMs: 20_000,
      requestMs: 600_000,
      keepAliveMs: 65_000,
    });
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '5000',
        HTTP_REQUEST_TIMEOUT_MS: '60000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '2000',
      }).httpDeadlines,
    ).toEqual({ headersMs: 5000, requestMs: 60_000, keepAliveMs: 2000 });
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow('HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  });

  it('gives claimed jobs a lease of 30 s unless JOB_LEASE_MS says otherwise', () => {
    expect(loadConfig({}).jobLeaseMs).toBe(30_000);
    expect(loadConfig({ JOB_LEASE_MS: '5000' }).jobLeaseMs).toBe(5000);
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
    ['FILES_URL', '/srv/files'],
    ['FILES_URL', 's3://'],
    ['FILES_URL', 's3://Tiles'],
    ['FILES_URL', 's3://tiles//x'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['JOB_LEASE_MS', '999'],
    ['JOB_LEASE_MS', 'forever'],
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
      userProvisioning: 'dynamic-security',
    });
  });

  it("provisions users on Mosquitto's dynamic-security plugin unless told none", () => {
    const external = { MQTT_URL: 'ws://broker:9001', MQTT_USERNAME: 's', MQTT_PASSWORD: 'p' };
    expect(loadConfig(external).externalBroker?.userProvisioning).toBe('dynamic-security');
    expect(
      loadConfig({ ...external, MQTT_USER_PROVISIONING: 'none' }).externalBroker?.userProvisioning,
    ).toBe('none');
    expect(() => loadConfig({ ...external, MQTT_USER_PROVISIONING: 'acl-file' })).toThrow(
      /MQTT_USER_PROVISIONING must be 'dynamic-security'/,
    );
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

  describe('[#16] several servers and workers', () => {
    const broker = {
      MQTT_URL: 'ws://mosquitto:9001',
      MQTT_USERNAME: 'tessera-service',
      MQTT_PASSWORD: 'secret',
    };

    it('runs everything in one process with counts in memory by default', () => {
      const config = loadConfig({});
      expect(config.role).toBe('server');
      expect(config.sharedLimits).toEqual({ store: 'memory' });
      expect(config.instanceName).toBe(defaultInstanceName('server'));
    });

    it('counts limits in the database with an external broker, in Redis with REDIS_URL', () => {
      expect(loadConfig(broker).sharedLimits).toEqual({ store: 'database' });
      expect(loadConfig({ ...broker, REDIS_URL: 'redis://cache:6379/2' }).sharedLimits).toEqual({
        store: 'redis',
        url: 'redis://cache:6379/2',
        keyPrefix: 'tessera:',
      });
      expect(() => loadConfig({ REDIS_URL: 'http://cache' })).toThrow(/REDIS_URL must be a URL/);
    });

    it('refuses a worker or a web process without an external broker, naming ROLE', () => {
      expect(() => loadConfig({ ROLE: 'worker' })).toThrow(
        /ROLE 'worker' needs MQTT_URL.*embedded broker serves one process only/,
      );
      expect(() => loadConfig({ ROLE: 'web' })).toThrow(/ROLE 'web' needs MQTT_URL/);
      expect(() => loadConfig({ ROLE: 'cron' })).toThrow(/ROLE must be server, web, worker/);
      const worker = loadConfig({ ...broker, ROLE: 'worker', INSTANCE_NAME: 'gpu-worker-2' });
      expect(worker).toMatchObject({ role: 'worker', instanceName: 'gpu-worker-2' });
      expect(() => loadConfig({ INSTANCE_NAME: 'Not OK!' })).toThrow(/INSTANCE_NAME/);
    });

    it('derives the instance name from the host name and role', () => {
      expect(defaultInstanceName('worker', 'GPU_Box.example.com')).toBe(
        'gpu-box-example-com-worker',
      );
    });
  });
});

describe('the operators’ settings (issue 23, part 9)', () => {
  const broker = {
    MQTT_URL: 'mqtt://broker:1883',
    MQTT_USERNAME: 'tessera',
    MQTT_PASSWORD: 'secret',
    PUBLIC_MQTT_URL: 'wss://tiles.example/mqtt',
  };

  it('serves no metrics, drains 5 s and gives open requests 10 s by default', () => {
    const config = loadConfig({});
    expect(config.metricsToken).toBeUndefined();
    expect(config.metricsPort).toBeUndefined();
    expect(config.healthPort).toBeUndefined();
    expect(config.shutdownDrainMs).toBe(5000);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS must be/);
    expect(config.shutdownGraceMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '500' }).shutdownGraceMs).toBe(500);
  });

  it('takes a metrics token of 16 characters or more, and never echoes a bad one', () => {
    const token = 'a'.repeat(40);
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    let message = '';
    try {
      loadConfig({ METRICS_TOKEN: 'short secret' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/METRICS_TOKEN must be at least 16 printable characters/);
    expect(message).not.toContain('short secret');
  });

  it('gives a worker a health port, and refuses one on a process that has PORT', () => {
    const worker = loadConfig({ ...broker, ROLE: 'worker', HEALTH_PORT: '9100' });
    expect(worker.healthPort).toBe(9100);
    expect(() => loadConfig({ HEALTH_PORT: '9100' })).toThrow(
      /HEALTH_PORT is for ROLE=worker.*'server' process answers \/api\/health and \/api\/ready on PORT/,
    );
  });

  it('refuses a metrics port that is the main (or health) port, whose /metrics needs the token', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() =>
      loadConfig({ ...broker, ROLE: 'worker', HEALTH_PORT: '9100', METRICS_PORT: '9100' }),
    ).toThrow(/METRICS_PORT must differ from HEALTH_PORT/);
  });
});
