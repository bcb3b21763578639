import { errorText, type ServerErrorArgs, type ServerErrorCode } from '@tessera/contract';

/** A refusal of an account change; its text is the contract's (the code picks the HTTP status). */
export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly code?: ServerErrorCode,
  ) {
    super(message);
  }

  static of<C extends ServerErrorCode>(code: C, ...args: ServerErrorArgs<C>): UserError {
    return new UserError(errorText(code, ...args), code);
  }
}

/** The account changed in Tessera, but the broker could not be told (see `cause`). */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}
