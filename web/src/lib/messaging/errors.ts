import { CONNECTION_ERROR_TEXTS, TEXT_BUNDLES } from '@tessera/contract';
import type { BaseResponse, ConnectionErrorText, RequestAction } from '@tessera/contract';
import { currentTexts, serverText } from '../i18n/locale';

/** The texts in the language shown when one is written. */
const texts = () => currentTexts(TEXT_BUNDLES.texts);
const shellTexts = () => currentTexts(TEXT_BUNDLES.shell);

/** The server answered `success: false`; the message is its error text. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
  readonly action: RequestAction;
  readonly response: BaseResponse;

  constructor(action: RequestAction, response: BaseResponse) {
    super(
      response.error === undefined
        ? shellTexts().connection.requestFailed(action)
        : serverText(response.error),
    );
    this.action = action;
    this.response = response;
  }
}

/** An answer that does not have the shape the contract gives the action. */
export class InvalidResponseError extends Error {
  override readonly name = 'InvalidResponseError';
  readonly action: RequestAction;

  constructor(action: RequestAction, cause: unknown) {
    super(shellTexts().unexpectedAnswer, { cause });
    this.action = action;
  }
}

/** No answer came within the response timeout (SPEC §8). */
export class ResponseTimeoutError extends Error {
  override readonly name = 'ResponseTimeoutError';

  constructor() {
    super(texts().responseTimedOut);
  }
}

/** The request client was disposed (sign out, or a new login) while the request waited. */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';

  constructor() {
    super(shellTexts().connection.closed);
  }
}

/**
 * SPEC §8's text for a connection problem mqtt.js reports in its own words ('Keepalive timeout',
 * 'Invalid topic <topic>'), or undefined for any other error.
 */
export function connectionProblemText(message: string): ConnectionErrorText | undefined {
  const said = message.trim().toLowerCase();
  return CONNECTION_ERROR_TEXTS.find((text) => {
    const spec = text.toLowerCase();
    return said === spec || said.startsWith(`${spec} `);
  });
}

/** A connection problem of SPEC §8 in the spec's words; mqtt.js's own error is its cause. */
export class ConnectionProblemError extends Error {
  override readonly name = 'ConnectionProblemError';

  constructor(text: ConnectionErrorText, cause: Error) {
    super(text, { cause });
  }
}

/** `error` when it already reads as the spec says (or is no connection problem), else in its words. */
export function asConnectionProblem(error: Error): Error {
  const text = connectionProblemText(error.message);
  return text === undefined || text === error.message
    ? error
    : new ConnectionProblemError(text, error);
}
