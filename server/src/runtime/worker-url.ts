import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Where a worker thread's entry module lives, next to the module that starts it: from the built
 * server (`server/dist`, plain JavaScript) it is `./<name>.js`; from the TypeScript sources
 * (vitest, tsx), where the caller's own URL ends in `.ts`, it is `./<name>.ts`.
 */
export function workerEntry(callerUrl: string, name: string): { url: URL; typescript: boolean } {
  const typescript = new URL(callerUrl).pathname.endsWith('.ts');
  return { url: new URL(`./${name}.${typescript ? 'ts' : 'js'}`, callerUrl), typescript };
}

/**
 * Starts the worker `./<name>.js` (or `.ts`) beside `callerUrl` (pass `import.meta.url`).
 *
 * A TypeScript entry is loaded through tsx. `execArgv: ['--import', 'tsx']` would be the
 * obvious way, but Node 20 does not apply module hooks given in a worker's execArgv
 * (nodejs/node#47747, privatenumber/tsx#354: ERR_UNKNOWN_FILE_EXTENSION), so the worker runs a
 * two-line bootstrap instead that registers tsx's hooks (`tsx/esm/api`) and then imports it.
 */
export function startWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const entry = workerEntry(callerUrl, name);
  if (!entry.typescript) return new Worker(entry.url, options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = [
    `import(${JSON.stringify(tsxApi)})`,
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.url.href)}); });`,
  ].join('');
  return new Worker(bootstrap, { ...options, eval: true });
}
