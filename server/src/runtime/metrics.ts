/**
 * The metrics port: what the edges and the job runner record as they work. Plumbing, so any
 * layer may take it without knowing Prometheus; the root wires it to prom-client
 * (lifecycle/prometheus.ts), and tests and tools get the no-op.
 */
export interface Metrics {
  /** An HTTP request answered; `route` is the route's pattern (`/api/images/:name`), never the URL. */
  httpRequest(request: { method: string; route: string; status: number; seconds: number }): void;
  /** An MQTT command handled by the messaging service. */
  mqttCommand(action: string, outcome: CommandOutcome): void;
  /** One run (attempt) of a job ended here. */
  jobRun(kind: string, outcome: JobRunOutcome, seconds: number): void;
}

/**
 * `ok`: answered with success; `refused`: bad input or a rule said no (the user is told why);
 * `failed`: an internal error; `over-rate`: above the user's command rate.
 */
export type CommandOutcome = 'ok' | 'refused' | 'failed' | 'over-rate';

/**
 * `finished`; `failed` (retried or failed for good); `cancelled` by its owner; `stopped` by a
 * shutdown (back to the queue); `lost` to another process (its lease expired).
 */
export type JobRunOutcome = 'finished' | 'failed' | 'cancelled' | 'stopped' | 'lost';

/** Records nothing: where no one scrapes (tests, the CLI). */
export const noMetrics: Metrics = {
  httpRequest: () => undefined,
  mqttCommand: () => undefined,
  jobRun: () => undefined,
};
