import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPLOY_DOC = path.join(ROOT, 'docs/deploy.md');
export const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';
const run = promisify(execFile);

/**
 * Debian's nginx and openssl (the certificate) are what the HTTPS test needs. Without them it is
 * skipped with a notice, except in CI, where a missing one fails the run.
 */
export function nginxMissing(): string | undefined {
  const absent = [NGINX, OPENSSL].find((file) => !fs.existsSync(file));
  if (absent === undefined) return undefined;
  const missing = `${absent} not found (apt-get install nginx openssl)`;
  if (process.env.CI === 'true') throw new Error(`HTTPS test: ${missing}`);
  console.warn(`\n*** HTTPS proxy test SKIPPED: ${missing} ***\n`);
  return missing;
}

/** A port nobody listens on at 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for localhost and 127.0.0.1, made in `dir`. */
export async function selfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await run(OPENSSL, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { cert, key };
}

/**
 * The nginx site of docs/deploy.md (its first `nginx` block), with only its addresses changed:
 * the test runs the configuration operators copy. A change of the documented lines that the
 * test relies on fails here, naming the line.
 */
export function documentedSite(options: {
  port: number;
  upstreamPort: number;
  cert: string;
  key: string;
}): string {
  const doc = fs.readFileSync(DEPLOY_DOC, 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (block === undefined) throw new Error(`${DEPLOY_DOC} has no nginx configuration`);
  const replacements: [string, string][] = [
    ['listen 443 ssl;', `listen 127.0.0.1:${options.port} ssl;`],
    ['server_name tiles.example.com;', 'server_name localhost;'],
    ['/etc/ssl/tessera/fullchain.pem', options.cert],
    ['/etc/ssl/tessera/privkey.pem', options.key],
    ['http://127.0.0.1:8080', `http://127.0.0.1:${options.upstreamPort}`],
  ];
  return replacements.reduce((site, [documented, here]) => {
    if (!site.includes(documented)) throw new Error(`docs/deploy.md's nginx lacks '${documented}'`);
    return site.replaceAll(documented, here);
  }, block);
}

export interface RunningNginx {
  /** https://localhost:<port> */
  url: string;
  port: number;
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * nginx as a child process of the test (`daemon off`), everything it writes in a folder of its
 * own (pid file, error log, temporary files), serving `site` on 127.0.0.1:`port`.
 */
export async function startNginx(dir: string, port: number, site: string): Promise<RunningNginx> {
  // Run as root, nginx's workers drop to nobody, who must reach the temporary folders.
  fs.chmodSync(dir, 0o755);
  const main = path.join(dir, 'nginx.conf');
  const temp = (name: string) => path.join(dir, name);
  fs.writeFileSync(path.join(dir, 'tessera.conf'), site);
  fs.writeFileSync(
    main,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${temp('nginx.pid')};`,
      `error_log ${temp('error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${temp('client_body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      `  include ${temp('tessera.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  // -e: the error log before the configuration is read (the default, /var/log, may be closed).
  const child = spawn(NGINX, ['-p', dir, '-e', temp('error.log'), '-c', main], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const errorLog = () => {
    const log = fs.existsSync(temp('error.log')) ? fs.readFileSync(temp('error.log'), 'utf8') : '';
    return `${output}${log}`;
  };
  try {
    await listening(child, temp('nginx.pid'), errorLog);
  } catch (err) {
    await terminate(child);
    throw err;
  }
  return {
    url: `https://localhost:${port}`,
    port,
    errorLog,
    stop: () => terminate(child),
  };
}

/**
 * Resolves once nginx has written its pid file, which it does after opening its listening
 * sockets; rejects if it exits first or within 20 s.
 */
function listening(child: ChildProcess, pidFile: string, log: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = fs.watch(path.dirname(pidFile), () => check());
    const deadline = setTimeout(() => finish(new Error(`nginx did not start:\n${log()}`)), 20_000);
    const onExit = (code: number | null) =>
      finish(new Error(`nginx exited with ${code}:\n${log()}`));
    child.once('exit', onExit);
    function check() {
      if (fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim()) finish();
    }
    function finish(err?: Error) {
      watcher.close();
      clearTimeout(deadline);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
    check();
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // TERM: nginx's fast stop (a graceful one would wait for the open WebSockets).
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export function tempFolder(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
