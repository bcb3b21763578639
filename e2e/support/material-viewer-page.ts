import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const VIEWER = fileURLToPath(new URL('./material-viewer.ts', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.glb': 'model/gltf-binary',
  '.mtlx': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ViewerPage {
  /** The page, with the folder's files beside it. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The browser test's own page (the app's content security policy leaves no room for it): the
 * viewer module bundled with three.js by esbuild into `folder`, an HTML page loading it, and a
 * static server on loopback for the folder, where the package's files already lie.
 */
export async function startViewerPage(folder: string, canvasSize = 256): Promise<ViewerPage> {
  await build({
    entryPoints: [VIEWER],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(folder, 'viewer.js'),
    logLevel: 'silent',
  });
  await fs.writeFile(
    path.join(folder, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>Material viewer</title>
<style>body{margin:0;background:#000}canvas{display:block}</style>
<canvas width="${canvasSize}" height="${canvasSize}" role="img" aria-label="Material"></canvas>
<script type="module" src="viewer.js"></script>`,
  );
  const server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    const file = path.join(folder, name || 'index.html');
    if (path.dirname(file) !== folder) {
      response.writeHead(404).end();
      return;
    }
    fs.readFile(file).then(
      (body) => {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        response.writeHead(200, { 'content-type': type }).end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
