// The image's HEALTHCHECK: GET /api/health on this container's own HTTP port (it asks the
// database). A worker (ROLE=worker) serves HTTP only on HEALTH_PORT when that is set; without
// it there is nothing to ask, so it counts as healthy while it runs.
const role = process.env.ROLE ?? 'server';
const port = role === 'worker' ? process.env.HEALTH_PORT : process.env.PORT || 8080;
if (!port) process.exit(0);
const host = ['', '0.0.0.0', '::'].includes(process.env.HOST ?? '')
  ? '127.0.0.1'
  : process.env.HOST;
const url = new URL(`http://${host?.includes(':') ? `[${host}]` : host}:${port}`);
fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(8000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
