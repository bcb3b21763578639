import { CLI_ACTOR } from '@tessera/contract';
import type { HdRetentionService, RetentionPlan } from '../services/hd-retention.js';

const USAGE = `Usage: npm run retention -- [--dry-run] [--days N]
  (no option)   remove now the HD files older than HD_RETENTION_DAYS days
  --dry-run     list what would be removed and the space it frees; nothing changes
  --days N      this many days instead of HD_RETENTION_DAYS (e.g. a dry run before setting it)`;

/** A refusal of the command line: printed as is, exit code 2, nothing changed. */
export class RetentionCommandError extends Error {
  override name = 'RetentionCommandError';
}

export interface RetentionCommand {
  dryRun: boolean;
  /** --days; undefined: HD_RETENTION_DAYS. */
  days: number | undefined;
}

/** The command the arguments name, or the usage as a RetentionCommandError. */
export function parseRetentionCommand(args: readonly string[]): RetentionCommand {
  let dryRun = false;
  let days: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--days' && /^\d{1,5}$/.test(args[i + 1] ?? '') && Number(args[i + 1]) > 0) {
      days = Number(args[++i]);
    } else throw new RetentionCommandError(USAGE);
  }
  return { dryRun, days };
}

/** Runs (or dry-runs) the policy at `now`; what to print. */
export async function runRetentionCommand(
  command: RetentionCommand,
  service: HdRetentionService,
  now: Date,
): Promise<string> {
  if (!service.enabled) {
    throw new RetentionCommandError(
      'No HD retention policy: HD_RETENTION_DAYS is unset or 0. Give --days N to use one now.',
    );
  }
  const plan = command.dryRun
    ? await service.plan(now)
    : await service.run(now, { name: CLI_ACTOR });
  return formatPlan(plan, service.days, command.dryRun);
}

/**
 * One line per HD file (owner, file, bytes with its maps and print files, made), then the count
 * and the space freed.
 */
export function formatPlan(plan: RetentionPlan, days: number, dryRun: boolean): string {
  const lines = [`HD files older than ${days} days (made before ${plan.cutoff}):`];
  for (const item of plan.items) {
    lines.push(
      `${item.owner}\t${item.filename}\t${item.bytes + item.derivedBytes}\t${item.createdAt}`,
    );
  }
  const files = `${plan.items.length} HD file${plan.items.length === 1 ? '' : 's'}`;
  const space = `${formatBytes(plan.bytes)} (${plan.bytes} bytes)`;
  lines.push(
    dryRun ? `Would remove ${files}, freeing ${space}` : `Removed ${files}, freed ${space}`,
  );
  return lines.join('\n');
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
