import {
  API_ROUTES,
  brokerUrlResponseSchema,
  themeResponseSchema,
  titleResponseSchema,
} from '@tessera/contract';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './api/http';
import { fetchSsoConfig } from './api/sso';
import type { BrokerAddress } from './messaging/connect-options';

/**
 * The three start-up answers (SPEC §1). They hold for the page's life: never stale, fetched once
 * with one quiet retry; the start-up screen offers a Retry button after that.
 */
const once = { staleTime: Infinity, gcTime: Infinity, retry: 1 } as const;

export const titleQuery = queryOptions({
  queryKey: ['config', 'title'],
  queryFn: async () => (await getJson(API_ROUTES.title, titleResponseSchema)).title,
  ...once,
});

export const themeQuery = queryOptions({
  queryKey: ['config', 'theme'],
  queryFn: async () => (await getJson(API_ROUTES.theme, themeResponseSchema)).theme,
  ...once,
});

/** The broker's address and the MQTT version it speaks (3.1.1 when the server does not say). */
export const brokerQuery = queryOptions({
  queryKey: ['config', 'broker'],
  queryFn: (): Promise<BrokerAddress> => getJson(API_ROUTES.brokerUrl, brokerUrlResponseSchema),
  ...once,
});

/** Whether the login page offers single sign-on, and the provider's name (issue 30, part 4). */
export const ssoConfigQuery = queryOptions({
  queryKey: ['config', 'sso'],
  queryFn: fetchSsoConfig,
  ...once,
});

/** The first key segment shared by these queries, kept when a user signs out. */
export const CONFIG_QUERY_SCOPE = 'config';
