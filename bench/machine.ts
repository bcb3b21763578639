import os from 'node:os';

/** The line every benchmark prints first: what the figures were measured on. */
export function machineLine(): string {
  const model = os.cpus()[0]?.model.trim() || 'unknown CPU';
  const memory = (os.totalmem() / 2 ** 30).toFixed(1);
  const [load] = os.loadavg();
  return (
    `machine: ${model}, ${os.availableParallelism()} cores, ${memory} GiB memory, ` +
    `Node ${process.version}, ${os.platform()} ${os.arch()}, load average ${(load ?? 0).toFixed(2)}`
  );
}
