import { API_ROUTES } from '@tessera/contract';
import { openApiDocument } from '@tessera/contract/openapi';
import type { FastifyPluginAsync } from 'fastify';
import { apiReferencePage } from '../api-reference-page.js';

/**
 * The OpenAPI document (issue 30, part 2) and its reference page. Public, as the web app's own
 * code is: they tell the API's shapes, no user's data. Both are made once, when the app starts.
 */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  const document = openApiDocument();
  const json = JSON.stringify(document);
  const page = apiReferencePage(document, API_ROUTES.openApi);

  app.get(API_ROUTES.openApi, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/json').send(json),
  );
  app.get(API_ROUTES.apiDocs, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page),
  );
};
