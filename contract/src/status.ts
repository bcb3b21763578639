// Job statuses of SPEC §4, shared by preview generation and HD upscaling.

export const GENERATION_STATUSES = ['queued', 'in_progress', 'finished', 'error'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export function isGenerationStatus(value: unknown): value is GenerationStatus {
  return (GENERATION_STATUSES as readonly unknown[]).includes(value);
}
