import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API_ROUTES, METRICS_PATH } from '@tessera/contract';
import { openApiDocument, openApiPath, type OpenApiDocument } from '@tessera/contract/openapi';
import { Ajv2020, type AnySchema } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, passwordOf, type TestStore } from '../testing/fixtures.js';
import { httpTestDependencies } from '../testing/http-app.js';
import { buildHttpApp } from './app.js';
import { SESSION_COOKIE } from './session.js';

// Issue 30, part 2: the OpenAPI document is valid OpenAPI 3.1, tells every route the server
// registers, and what the live server answers fits the document's schemas.

/**
 * Registered routes the document leaves out on purpose: the files of the web app and its themes
 * are pages and assets, not the API. Anything else the server registers must be documented.
 */
const NOT_IN_THE_DOCUMENT: readonly { path: string; reason: string }[] = [
  { path: '/themes/*', reason: "the themes' stylesheets and images (static files)" },
  { path: '/index.html', reason: "the web app's page (static file)" },
  { path: '/assets/app.js', reason: "a built asset of the web app (static file; Vite's names)" },
];

let store: TestStore;
let app: FastifyInstance;
let document: OpenApiDocument;
/** Every method and path the app registers, as Fastify's onRoute hook tells them. */
const registered: { method: string; path: string }[] = [];

beforeAll(async () => {
  store = await createTestStore(['alice']);
  // A built web app's files, so the static routes a real server registers are registered here too.
  const webDistDir = path.join(store.dataDir, 'web-dist');
  fs.mkdirSync(path.join(webDistDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(webDistDir, 'assets', 'app.js'), 'export {};');
  app = await buildHttpApp(
    httpTestDependencies(store, {
      webDistDir,
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        // HEAD routes are Fastify's own, made for each GET.
        for (const method of methods)
          if (method !== 'HEAD') registered.push({ method, path: route.url });
      },
    }),
  );
  document = openApiDocument();
});

afterAll(async () => {
  await app.close();
  await store.close();
});

/** The JSON schema of an answer in the document, its component references resolved. */
function answerSchema(method: string, route: string, status: number): AnySchema {
  const operation = document.paths[openApiPath(route)]?.[method.toLowerCase()] as
    { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> } | undefined;
  const schema = operation?.responses[String(status)]?.content?.['application/json']?.schema;
  if (schema === undefined) throw new Error(`${method} ${route} documents no JSON ${status}`);
  return resolved(schema);
}

/** A schema of the document with its references to the document's components replaced. */
function resolved(schema: unknown): AnySchema {
  const components = (document.components as { schemas: Record<string, unknown> }).schemas;
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown): unknown => {
    const ref = (value as { $ref?: unknown } | null)?.$ref;
    return typeof ref === 'string' ? components[ref.replace('#/components/schemas/', '')] : value;
  });
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

/** Asserts the live answer has the documented status and fits that status's schema. */
function expectDocumented(method: string, route: string, res: LightMyRequestResponse) {
  const validate = ajv.compile(answerSchema(method, route, res.statusCode));
  const body: unknown = res.json();
  expect(
    validate(body),
    `${method} ${route} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`,
  ).toBe(true);
}

async function signIn(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    payload: { username: 'alice', password: passwordOf('alice') },
  });
  expect(res.statusCode).toBe(200);
  expectDocumented('POST', API_ROUTES.login, res);
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('no session cookie');
  return `${SESSION_COOKIE}=${cookie.value}`;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('holds only schemas that compile as JSON Schema 2020-12', () => {
    const schemas: unknown[] = [];
    JSON.stringify(document, (key, value: unknown) => {
      if (key === 'schema') schemas.push(value);
      return value;
    });
    expect(schemas.length).toBeGreaterThan(50);
    for (const schema of schemas) expect(() => ajv.compile(resolved(schema))).not.toThrow();
  });

  it('is served, without a session, at /api/openapi.json', async () => {
    const res = await app.inject(API_ROUTES.openApi);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(document);
  });

  it('tells every route the server registers, and no route it does not', () => {
    const excluded = new Set(NOT_IN_THE_DOCUMENT.map(({ path }) => path));
    const missing = registered
      .filter(({ path }) => !excluded.has(path))
      .filter(({ method, path }) => !document.paths[openApiPath(path)]?.[method.toLowerCase()])
      .map(({ method, path }) => `${method} ${path}`);
    expect(
      missing,
      'routes the server registers that the OpenAPI document lacks: describe each in ' +
        'contract/src/api-operations-*.ts (or list it in NOT_IN_THE_DOCUMENT with its reason)',
    ).toEqual([]);

    const served = new Set(registered.map(({ method, path }) => `${method} ${openApiPath(path)}`));
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(
      documented.filter((operation) => !served.has(operation)),
      'operations the document tells that the server does not register',
    ).toEqual([]);
  });

  it('writes path parameters as OpenAPI templates', () => {
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/api/images/ld/{filename}');
    expect(paths).toContain('/api/admin/users/{username}/password');
    expect(paths.filter((p) => p.includes(':'))).toEqual([]);
  });

  it('keeps the calls of SPEC §7 at their paths', () => {
    for (const [method, route] of [
      ['get', API_ROUTES.title],
      ['get', API_ROUTES.theme],
      ['get', API_ROUTES.brokerUrl],
      ['post', API_ROUTES.login],
      ['get', API_ROUTES.hdStatus],
      ['get', API_ROUTES.previewStatus],
      ['post', API_ROUTES.generatePreview],
      ['get', API_ROUTES.ldImage],
      ['get', API_ROUTES.ldThumbnail],
      ['get', API_ROUTES.hdImage],
      ['get', API_ROUTES.hdThumbnail],
    ] as const) {
      const operation = document.paths[openApiPath(route)]?.[method];
      expect(operation?.description, `${method} ${route}`).toContain('SPEC §7');
    }
    const preview = document.paths[API_ROUTES.generatePreview]?.post as {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(preview.requestBody.content)).toEqual(['multipart/form-data']);
  });
});

describe("the live server's answers fit the document", () => {
  it('answers the start-up calls as documented, without a session', async () => {
    for (const route of [API_ROUTES.title, API_ROUTES.theme, API_ROUTES.brokerUrl]) {
      expectDocumented('GET', route, await app.inject(route));
    }
    expectDocumented('GET', API_ROUTES.health, await app.inject(API_ROUTES.health));
    expectDocumented('GET', API_ROUTES.ready, await app.inject(API_ROUTES.ready));
  });

  it('answers the session as documented, and its 401 with the error body', async () => {
    const refused = await app.inject(API_ROUTES.session);
    expect(refused.statusCode).toBe(401);
    expectDocumented('GET', API_ROUTES.session, refused);

    const cookie = await signIn();
    const res = await app.inject({ url: API_ROUTES.session, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expectDocumented('GET', API_ROUTES.session, res);
  });

  it('answers a bad request with the documented 400 error body', async () => {
    const res = await app.inject({ method: 'POST', url: API_ROUTES.login, payload: {} });
    expect(res.statusCode).toBe(400);
    expectDocumented('POST', API_ROUTES.login, res);
  });

  it("answers a file that is not the user's with the documented 404", async () => {
    const cookie = await signIn();
    const res = await app.inject({
      url: API_ROUTES.ldImage.replace(':filename', 'nobody.png'),
      headers: { cookie },
    });
    expect(res.statusCode).toBe(404);
    expectDocumented('GET', API_ROUTES.ldImage, res);
  });

  it('documents /metrics, which answers 404 where it is not enabled', async () => {
    const res = await app.inject(METRICS_PATH);
    expect(res.statusCode).toBe(404);
    expectDocumented('GET', METRICS_PATH, res);
  });
});

describe('the API reference page', () => {
  it('lists every operation of the document, with no script, under the CSP', async () => {
    const res = await app.inject(API_ROUTES.apiDocs);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script/i);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        expect(res.body).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
      }
    }
  });
});
