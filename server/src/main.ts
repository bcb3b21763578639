import { ConfigError, loadConfig } from './config.js';
import { guardProcess } from './lifecycle/process-guards.js';
import { createLogger } from './runtime/logger.js';
import { startServer, type RunningServer } from './server.js';

type Running = RunningServer;

async function main(): Promise<void> {
  let running: Running | undefined;
  let stopRequested = false;
  let signals = 0;

  const stop = (server: Running) =>
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  // Listening from the first moment, so a signal during start-up also stops cleanly.
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal means "now": do not wait for a slow shutdown.
    if (++signals > 1) process.exit(1);
    process.stdout.write(`${signal} received, stopping\n`);
    stopRequested = true;
    if (running) void stop(running);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  try {
    const config = loadConfig();
    guardProcess(createLogger(config.logLevel).child({ instance: config.instanceName }));
    running = await startServer(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const admin = running.createdAdmin;
  if (admin?.savedTo) {
    process.stdout.write(
      `\nFirst start: created user '${admin.username}' with password ${admin.password}\n` +
        `(also in ${admin.savedTo} until it is changed; change it with: npm run users -- passwd ${admin.username})\n`,
    );
  } else if (admin) {
    process.stdout.write(
      `\nFirst start: created user '${admin.username}' with the password ADMIN_PASSWORD gave\n`,
    );
  }
  process.stdout.write(
    running.role === 'worker'
      ? `\nTessera worker is running jobs\n\n`
      : `\nTessera${running.role === 'web' ? ' (web, no jobs)' : ''} is running at ${running.url}\n\n`,
  );
  if (running.healthUrl) process.stdout.write(`Health checks at ${running.healthUrl}/api/ready\n`);
  if (running.metricsUrl) process.stdout.write(`Metrics at ${running.metricsUrl}/metrics\n`);
  if (stopRequested) void stop(running);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Tessera failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
