import net from 'node:net';

/**
 * Whether the tests' Redis answers: undefined when it does. Outside CI a missing Redis skips
 * the tests that need it, with a notice; in CI (CI=true, where .ci/run starts one) it fails.
 */
export async function redisMissing(url: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const settle = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2000);
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
  if (reachable) return undefined;
  const reason = `no Redis answers at ${url}`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.warn(`\n*** Redis tests SKIPPED: ${reason} (apt-get install redis-server) ***\n`);
  return reason;
}
