/** Small helpers of the stand-in's HTTP handlers. */
import type http from 'node:http';

/** The request body; undefined (the rest left unread) once it passes `maxBytes`. */
export const readBody = (
  req: http.IncomingMessage,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(data);
};

/** A bodiless answer, as aiohttp's web.Response(status=...) (no content type). */
export const empty = (res: http.ServerResponse, status = 200) => {
  res.writeHead(status);
  res.end();
};

/** aiohttp's answer to an exception a handler does not catch. */
export const serverError = (res: http.ServerResponse) => {
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('500 Internal Server Error\n\nServer got itself in trouble');
};
