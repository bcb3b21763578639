import {
  brokerUrlResponseSchema,
  themeResponseSchema,
  titleResponseSchema,
} from '@tessera/contract';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './http';

/**
 * The three start-up answers (SPEC §1). They hold for the page's life: never stale, fetched once
 * with one quiet retry; the start-up screen offers a Retry button after that.
 */
const once = { staleTime: Infinity, gcTime: Infinity, retry: 1 } as const;

export const titleQuery = queryOptions({
  queryKey: ['config', 'title'],
  queryFn: async () => (await getJson('/api/title', titleResponseSchema)).title,
  ...once,
});

export const themeQuery = queryOptions({
  queryKey: ['config', 'theme'],
  queryFn: async () => (await getJson('/api/theme', themeResponseSchema)).theme,
  ...once,
});

export const brokerUrlQuery = queryOptions({
  queryKey: ['config', 'broker-url'],
  queryFn: async () => (await getJson('/api/mosquitto/url', brokerUrlResponseSchema)).url,
  ...once,
});

/** The first key segment shared by these queries, kept when a user signs out. */
export const CONFIG_QUERY_SCOPE = 'config';
