import pino, { type Logger } from 'pino';

/** Structured JSON logs on stdout; secrets never reach them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: ['req.headers.cookie', 'req.headers.authorization', 'password', '*.password'],
  });
}
