import { TEXTS } from '@tessera/contract';
import type { BaseResponse, RequestAction } from '@tessera/contract';

/** The server answered `success: false`; the message is its error text. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
  readonly action: RequestAction;
  readonly response: BaseResponse;

  constructor(action: RequestAction, response: BaseResponse) {
    super(response.error ?? `${action} failed`);
    this.action = action;
    this.response = response;
  }
}

/** An answer that does not have the shape the contract gives the action. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
  readonly action: RequestAction;

  constructor(action: RequestAction, cause: unknown) {
    super(`Invalid ${action} response`, { cause });
    this.action = action;
  }
}

/** No answer came within the response timeout (SPEC §8). */
export class ResponseTimeoutError extends Error {
  override readonly name = 'ResponseTimeoutError';

  constructor() {
    super(TEXTS.responseTimedOut);
  }
}

/** The request client was disposed (sign out, or a new login) while the request waited. */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';

  constructor() {
    super('The messaging client was closed');
  }
}
