import { createHmac, randomBytes } from 'node:crypto';

// The Standard Webhooks scheme (standardwebhooks.com): a `whsec_` secret of random bytes in
// base64, and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; several
// signatures, space-separated, when more than one secret signs (a rotation's grace period).

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The three headers of one try, signed with each of `secrets` (the current one first);
 * `timestamp` is that try's, in seconds. A receiver accepts the try if any signature is its own.
 */
export function signedHeaders(
  secrets: readonly string[],
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
    const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`);
    return `v1,${mac.digest('base64')}`;
  });
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
