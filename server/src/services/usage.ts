import {
  USAGE_JOB_KINDS,
  USAGE_TOP_USERS,
  usageDayRange,
  type AdminUsage,
  type UsageEngine,
  type UsageQueue,
} from '@tessera/contract';
import type { EngineHealth } from '../engines/engine.js';
import type { DailyImageCount, DailyImagesRepository } from '../store/daily-images.js';
import type { JobCountsRepository } from '../store/job-counts.js';

export interface UsageSources {
  images: DailyImagesRepository;
  jobs: JobCountsRepository;
  /** The engine's own state (ENGINE=comfyui: its servers); absent: the builtin engine. */
  engineHealth?: () => Promise<EngineHealth>;
  /** The clock that says which day is today (a test's fixed one). */
  now?: () => Date;
}

/** The builtin engine runs inside the server: while the server answers, it is up. */
const BUILTIN_ENGINE: UsageEngine = { engine: 'builtin', label: null, state: 'up' };

/** Usage at a glance (issue 29, part 6): what the admin screen's charts draw. */
export class UsageService {
  constructor(private readonly sources: UsageSources) {}

  async glance(): Promise<AdminUsage> {
    const days = usageDayRange(this.sources.now?.() ?? new Date());
    const [counts, live, engines] = await Promise.all([
      this.sources.images.between(days[0] ?? '', days.at(-1) ?? ''),
      this.sources.jobs.live(),
      this.engines(),
    ]);
    const queue: UsageQueue[] = USAGE_JOB_KINDS.map((kind) => ({ kind, queued: 0, running: 0 }));
    for (const { kind, status, count } of live) {
      const entry = queue.find((q) => q.kind === kind);
      if (!entry) continue;
      if (status === 'queued') entry.queued += count;
      else entry.running += count;
    }
    return { ...imagesByDay(days, counts), queue, engines };
  }

  private async engines(): Promise<UsageEngine[]> {
    const servers = (await this.sources.engineHealth?.())?.servers;
    if (!servers?.length) return [BUILTIN_ENGINE];
    return servers.map((server) => ({
      engine: 'comfyui',
      label: hostOf(server.url),
      state: server.state,
    }));
  }
}

/** Each day's LD and HD images, and its images of the top users and of everyone else. */
export function imagesByDay(
  days: string[],
  counts: DailyImageCount[],
): Pick<AdminUsage, 'days' | 'topUsers'> {
  const totals = new Map<string, number>();
  for (const { username, count } of counts)
    totals.set(username, (totals.get(username) ?? 0) + count);
  const topUsers = [...totals]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, USAGE_TOP_USERS)
    .map(([username]) => username);
  const byDay = new Map(
    days.map((day) => [
      day,
      { day, ldImages: 0, hdImages: 0, byUser: topUsers.map(() => 0), others: 0 },
    ]),
  );
  for (const { day, username, kind, count } of counts) {
    const entry = byDay.get(day);
    if (!entry) continue;
    if (kind === 'ld') entry.ldImages += count;
    else entry.hdImages += count;
    const rank = topUsers.indexOf(username);
    if (rank >= 0) entry.byUser[rank] = (entry.byUser[rank] ?? 0) + count;
    else entry.others += count;
  }
  return { days: [...byDay.values()], topUsers };
}

/** A server's host:port, never its path or credentials (the URL is shown to admins). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}
