import { describe, expect, it } from 'vitest';
import { API_OPERATIONS, openApiDocument, openApiPath } from './openapi.js';
import { API_ROUTES } from './routes.js';

describe('the OpenAPI document of the contract', () => {
  it("writes Fastify's :name parameters as OpenAPI's {name}", () => {
    expect(openApiPath('/api/admin/users/:username/password')).toBe(
      '/api/admin/users/{username}/password',
    );
    expect(openApiPath(API_ROUTES.title)).toBe('/api/title');
  });

  it('describes every route of API_ROUTES, each method once', () => {
    const described = new Set(API_OPERATIONS.map(({ path }) => path));
    expect(Object.values(API_ROUTES).filter((route) => !described.has(route))).toEqual([]);
    const keys = API_OPERATIONS.map(({ method, path }) => `${method} ${path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('names each operation uniquely after its route', () => {
    const ids = Object.values(openApiDocument().paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(ids).toContain('getTitle');
    expect(ids).toContain('postAdminUsers');
    expect(ids.length).toBe(new Set(ids).size);
  });

  it('answers every refusal with the error body, by reference', () => {
    const login = openApiDocument().paths['/api/login']?.post as {
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
    expect(login.responses['401']?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });
});
