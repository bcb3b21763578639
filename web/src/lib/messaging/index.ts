// The browser's messaging client (SPEC §7): request/response over MQTT and HD status events.
export {
  CommandFailedError,
  InvalidResponseError,
  RequestCancelledError,
  ResponseTimeoutError,
} from './errors';
export type { HdStatusEvent, HdStatusListener } from './hd-status';
export { MessagingProvider } from './messaging-provider';
export { createRequestClient } from './request-client';
export type { RequestClient, RequestClientOptions, RequestFields } from './request-client';
export { useHdStatus, useMessaging } from './use-messaging';
