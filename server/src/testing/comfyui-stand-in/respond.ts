/** Small helpers of the stand-in's HTTP handlers. */
import type http from 'node:http';

export const readBody = (req: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export const json = (res: http.ServerResponse, status: number, body: unknown) => {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(data);
};

export const empty = (res: http.ServerResponse, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end();
};
