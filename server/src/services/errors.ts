import type { ServerError, ServerErrorCode } from '@tessera/contract';

/** A refusal the user can read: the messaging service sends its message as the response's `error`. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  /** The refusal's code in the contract's table (SERVER_ERRORS). */
  readonly code: ServerErrorCode;

  constructor(refusal: ServerError) {
    super(refusal.text);
    this.code = refusal.code;
  }
}
