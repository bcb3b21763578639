import { baseResponseSchema, responseSchemas } from '@tessera/contract';
import type { CommandResponse, RequestAction } from '@tessera/contract';
import { CommandFailedError, InvalidResponseError } from './errors';

/**
 * An answer checked against the contract: the common fields first, so a failure is reported by
 * its error text even when it lacks the fields of a success; then the action's own shape.
 */
export function parseCommandResponse<A extends RequestAction>(
  action: A,
  data: unknown,
): CommandResponse<A> {
  const base = baseResponseSchema.safeParse(data);
  if (!base.success) throw new InvalidResponseError(action, base.error);
  if (!base.data.success) throw new CommandFailedError(action, base.data);
  const full = responseSchemas[action].safeParse(data);
  if (!full.success) throw new InvalidResponseError(action, full.error);
  return full.data as CommandResponse<A>;
}

/** The transactionid of an answer, when it has a usable one. */
export function transactionIdOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('transactionid' in data)) return undefined;
  const { transactionid } = data;
  return typeof transactionid === 'string' ? transactionid : undefined;
}
