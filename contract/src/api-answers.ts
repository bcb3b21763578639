// Answers of HTTP routes whose shape had no schema of its own: the operations checks, the
// accepted preview job and the empty answer. The OpenAPI document describes them from here.
import { z } from 'zod';

/** One image server as an engine sees it (ComfyUI: one entry of COMFYUI_URLS). */
export const engineServerHealthSchema = z.object({
  url: z.string(),
  state: z.enum(['up', 'down', 'checking', 'incomplete', 'failing']),
  missing: z.array(z.string()),
  version: z.string().nullable(),
  queueRemaining: z.number().nullable(),
  activeJobs: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  nextCheckAt: z.string().nullable(),
});

/** GET /api/health: 'degraded' while the engine has no server to take work (the site still serves). */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  engine: z
    .object({ ok: z.boolean(), servers: z.array(engineServerHealthSchema).optional() })
    .optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** GET /api/ready: ready, stopping (draining), or which dependencies fail. */
export const readinessResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready') }),
  z.object({ status: z.literal('stopping') }),
  z.object({ status: z.literal('unavailable'), failing: z.array(z.string()) }),
]);
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

/** POST /api/command/generate-image/preview's 202 (SPEC §7 shows no body; this is what is sent). */
export const previewAcceptedSchema = z.object({ id: z.string(), status: z.literal('queued') });

/** A command that answers nothing more than its success. */
export const emptyResponseSchema = z.object({});
