import { createHmac, randomBytes } from 'node:crypto';

// The Standard Webhooks scheme (standardwebhooks.com): a `whsec_` secret of random bytes in
// base64, and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The three headers of one try; `timestamp` is that try's, in seconds. */
export function signedHeaders(
  secret: string,
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${messageId}.${timestamp}.${body}`)
    .digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
