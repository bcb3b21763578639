import { errorResponseSchema, TEXT_BUNDLES } from '@tessera/contract';
import { currentTexts, serverText } from '../i18n/locale';

/** What the client needs of a schema: the contract's zod schemas fit it as they are. */
export interface Parser<T> {
  safeParse(input: unknown): { success: true; data: T } | { success: false };
}

/** A request that did not end in the expected answer; `message` is fit to show to a person. */
export class HttpError extends Error {
  /** The HTTP status, or 0 when the server could not be reached. */
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}

/** An answer as it arrived: its status and its JSON body (undefined when it has none). */
export interface HttpAnswer {
  status: number;
  ok: boolean;
  body: unknown;
}

/** The frame's texts in the language shown when one is written. */
const shellTexts = () => currentTexts(TEXT_BUNDLES.shell);

/**
 * Sends one request and reads its body as JSON. Rejects with an HttpError of status 0 only when
 * the server cannot be reached; every answer, whatever its status, resolves.
 */
export async function send(path: string, init: RequestInit = {}): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init });
  } catch {
    throw new HttpError(shellTexts().unreachable, 0);
  }
  let body: unknown = undefined;
  try {
    const text = await response.text();
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined;
  }
  return { status: response.status, ok: response.ok, body };
}

/** POSTs `payload` as JSON (or nothing when it is undefined). */
export function postJson(path: string, payload?: unknown): Promise<HttpAnswer> {
  return send(path, {
    method: 'POST',
    ...(payload === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) }),
  });
}

/**
 * The parser for an answer whose body does not matter: any accepted answer will do, and a refusal
 * still becomes an HttpError with the server's text through expectAnswer.
 */
export const ACCEPT_ANY: Parser<unknown> = {
  safeParse: (input) => ({ success: true, data: input }),
};

/** Reads a successful answer with `schema`; any other answer becomes an HttpError. */
export function expectAnswer<T>(answer: HttpAnswer, schema: Parser<T>): T {
  if (!answer.ok) {
    const error = errorResponseSchema.safeParse(answer.body);
    throw new HttpError(
      error.success ? serverText(error.data.error) : shellTexts().serverStatus(answer.status),
      answer.status,
    );
  }
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) throw new HttpError(shellTexts().unexpectedAnswer, answer.status);
  return parsed.data;
}

/** GETs `path` and parses the answer with `schema`. */
export async function getJson<T>(path: string, schema: Parser<T>): Promise<T> {
  return expectAnswer(await send(path), schema);
}
