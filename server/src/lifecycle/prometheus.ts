import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CommandOutcome, JobRunOutcome, Metrics } from '../runtime/metrics.js';
import type { LiveJobCount } from '../store/job-counts.js';

/** Where the gauges read at each scrape; each part is told once it exists. */
export interface MetricSources {
  /** The engine's name, the `engine` label of job runs (ENGINE, or a test's stand-in). */
  engineName?: string;
  /** Queued and running jobs of every process sharing the queue. */
  liveJobs?: () => Promise<LiveJobCount[]>;
  /** Open MQTT connections: the embedded broker's, or an external broker's own count. */
  mqttConnections?: () => number;
  /** Each ComfyUI server's state as the pool last saw it. */
  imageServerStates?: () => string[];
}

/** ComfyUI server states, each reported (0 too) so a dashboard's series do not come and go. */
const SERVER_STATES = ['up', 'checking', 'down', 'incomplete', 'failing'];
const MQTT_CONNECTIONS = 'tessera_mqtt_connections';
const JOB_STATES = { queued: 'queued', in_progress: 'running' } as const;

/**
 * The metrics port on prom-client: one registry per started server (tests start several in
 * one process), with Node's default metrics (event-loop lag, memory, CPU, handles).
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private sources: MetricSources = {};
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly commands: Counter<'action' | 'outcome'>;
  private readonly jobRuns: Histogram<'kind' | 'engine' | 'outcome'>;

  constructor(jobKinds: readonly string[]) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'HTTP requests answered, by route pattern, method and status, and how long each took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.commands = new Counter({
      name: 'tessera_mqtt_commands_total',
      help: 'MQTT commands handled, by action and outcome (ok, refused, failed, over-rate)',
      labelNames: ['action', 'outcome'],
      registers,
    });
    this.jobRuns = new Histogram({
      name: 'tessera_job_duration_seconds',
      help: 'Job runs (attempts) ended in this process, by kind, engine and outcome, and how long each took',
      labelNames: ['kind', 'engine', 'outcome'],
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800],
      registers,
    });
    const sources = () => this.sources;
    new Gauge({
      name: 'tessera_jobs',
      help: 'Jobs queued and running, by kind, in the whole queue (every process reports the same)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        const live = sources().liveJobs;
        if (!live) return;
        const counts = await live();
        for (const kind of jobKinds) {
          for (const [status, state] of Object.entries(JOB_STATES)) {
            const row = counts.find((c) => c.kind === kind && c.status === status);
            this.set({ kind, state }, row?.count ?? 0);
          }
        }
      },
    });
    new Gauge({
      name: 'tessera_comfyui_servers',
      help: 'ComfyUI servers by state (ENGINE=comfyui)',
      labelNames: ['state'],
      registers,
      collect() {
        const states = sources().imageServerStates?.();
        if (!states) return;
        for (const state of new Set([...SERVER_STATES, ...states])) {
          this.set({ state }, states.filter((s) => s === state).length);
        }
      },
    });
  }

  /** Adds where gauges read from; called as the parts start. */
  watch(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
    const connections = sources.mqttConnections;
    // Once a count exists: before an external broker's first report a 0 here would lie.
    if (connections && !this.registry.getSingleMetric(MQTT_CONNECTIONS)) {
      new Gauge({
        name: MQTT_CONNECTIONS,
        help: 'MQTT connections open on the broker (service connections included); with an external broker its own count, the same from every process',
        registers: [this.registry],
        collect() {
          this.set(connections());
        },
      });
    }
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  httpRequest(request: { method: string; route: string; status: number; seconds: number }): void {
    this.http.observe(
      { method: request.method, route: request.route, status: String(request.status) },
      request.seconds,
    );
  }

  mqttCommand(action: string, outcome: CommandOutcome): void {
    this.commands.inc({ action, outcome });
  }

  jobRun(kind: string, outcome: JobRunOutcome, seconds: number): void {
    this.jobRuns.observe({ kind, engine: this.sources.engineName ?? 'unknown', outcome }, seconds);
  }
}
