import type { NodeError, NodeErrorReason } from './api-types.js';

/**
 * The server did not answer in time, refused the connection, answered with a server error (5xx)
 * or something that is not ComfyUI's API, or could not be reached again after its websocket
 * dropped. The pool leaves such a server out for a while; the job fails and the job runner
 * retries it (on another server).
 */
export class ComfyServerError extends Error {
  override name = 'ComfyServerError';

  constructor(
    readonly serverUrl: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`ComfyUI server ${serverUrl}: ${message}`, options);
  }
}

/**
 * The prompt's websocket dropped and could not be opened again at once while another server of
 * the farm was up: the job leaves this server (its prompt taken back if it still runs there) and
 * is queued again on another at once, not after the 30 s of reopening a lone server gets.
 */
export class ComfyServerLeftError extends ComfyServerError {
  override name = 'ComfyServerLeftError';
}

/**
 * The server answered a request with a 4xx other than a prompt's validation (404 from /view, 413
 * from /upload/image, 401 from a proxy ...): the server works, this job's request does not. The
 * job fails (and is retried as usual); the server stays in.
 */
export class ComfyRequestError extends Error {
  override name = 'ComfyRequestError';

  constructor(
    readonly serverUrl: string,
    readonly status: number,
    message: string,
  ) {
    super(`ComfyUI server ${serverUrl}: ${message}`);
  }
}

/** POST /prompt answered 400: the workflow failed ComfyUI's validation (`node_errors`). */
export class ComfyValidationError extends Error {
  override name = 'ComfyValidationError';

  constructor(
    readonly serverUrl: string,
    readonly error: NodeErrorReason | string | undefined,
    readonly nodeErrors: Record<string, NodeError>,
  ) {
    super(`ComfyUI refused the workflow: ${describeValidation(error, nodeErrors)}`);
  }
}

/** The workflow failed while it ran (`execution_error`) or was interrupted by someone else. */
export class ComfyExecutionError extends Error {
  override name = 'ComfyExecutionError';

  constructor(
    readonly serverUrl: string,
    message: string,
    readonly nodeId?: string,
    readonly nodeType?: string,
  ) {
    super(message);
  }
}

/**
 * A node raised an error while the prompt ran (`execution_error`): the run-time failures the pool
 * counts per server, since a broken model file fails every job there (pool.ts, `failing`).
 */
export class ComfyNodeFailure extends ComfyExecutionError {
  override name = 'ComfyNodeFailure';
}

/**
 * The server answers but no longer knows the prompt (it restarted, losing its queue and history):
 * the engine queues it again, there or on another server, within the outage window.
 */
export class ComfyPromptLostError extends Error {
  override name = 'ComfyPromptLostError';

  constructor(
    readonly serverUrl: string,
    readonly promptId: string,
  ) {
    super(`ComfyUI server ${serverUrl} no longer knows prompt ${promptId} (did it restart?)`);
  }
}

/** The prompt ran past its execution deadline: Tessera interrupted it. */
export class ComfyDeadlineError extends ComfyExecutionError {
  override name = 'ComfyDeadlineError';
}

/** A workflow template that cannot be used: not API format, or a node or input missing. */
export class WorkflowTemplateError extends Error {
  override name = 'WorkflowTemplateError';
}

/** "node 3 (KSampler): Value 25 bigger than max of 20: cfg; node 711 (...): ..." */
export function describeValidation(
  error: NodeErrorReason | string | undefined,
  nodeErrors: Record<string, NodeError>,
): string {
  const nodes = Object.entries(nodeErrors).map(([id, node]) => {
    const reasons = node.errors.map((reason) => reasonText(reason)).join('; ');
    return `node ${id} (${node.class_type}): ${reasons || 'invalid'}`;
  });
  if (nodes.length > 0) return nodes.join('; ');
  if (typeof error === 'string') return error;
  if (error) return reasonText(error);
  return 'no reason given';
}

function reasonText(reason: NodeErrorReason): string {
  return reason.details ? `${reason.message}: ${reason.details}` : reason.message;
}
