// The image's HEALTHCHECK: GET /api/health on this container's own HTTP port (it asks the
// database). A worker (ROLE=worker) serves no HTTP, so it counts as healthy while it runs.
const role = process.env.ROLE ?? 'server';
if (role === 'worker') process.exit(0);
const host = ['', '0.0.0.0', '::'].includes(process.env.HOST ?? '')
  ? '127.0.0.1'
  : process.env.HOST;
const url = new URL(
  `http://${host?.includes(':') ? `[${host}]` : host}:${process.env.PORT || 8080}`,
);
fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(8000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
