import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, errorText } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';

interface Options {
  webDistDir: string | undefined;
  themesDir: string;
}

/** The themes and the built single-page app; any other GET outside /api is a client route. */
export const staticFiles: FastifyPluginAsync<Options> = async (app, { webDistDir, themesDir }) => {
  await app.register(fastifyStatic, {
    root: themesDir,
    prefix: '/themes/',
    decorateReply: false,
    maxAge: '1h',
  });

  const hasWeb = webDistDir !== undefined && fs.existsSync(path.join(webDistDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // Vite names built assets by content hash, so they never change under the same name.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  } else {
    app.log.warn('web app not built: only the API is served (npm run build, or npm run dev)');
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith(API_PREFIX) &&
      !request.url.startsWith('/themes/');
    if (isPage && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDistDir);
    }
    return reply.status(404).send({ error: errorText('NOT_FOUND') });
  });
};
