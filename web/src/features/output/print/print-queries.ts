import {
  PRINT_DEFAULT_SETTINGS,
  type PrintFile,
  type PrintOrder,
  type PrintProfile,
} from '@tessera/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fetchPrintEstimate, fetchPrintFiles, fetchPrintProfiles } from '../../../lib/api/print';

/** How often a running print job's progress is read, as the material maps' are. */
const POLL_MS = 500;

export function printFilesQueryKey(image: string) {
  return ['print-files', image] as const;
}

/** Whether any of the files is still being made: the list is polled until none is. */
export function anyPrintFileRunning(files: readonly PrintFile[] | undefined): boolean {
  return (files ?? []).some((file) => file.status === 'queued' || file.status === 'in_progress');
}

/** The HD image's print files, newest first, polled while one is queued or being made. */
export function usePrintFiles(image: string) {
  return useQuery({
    queryKey: printFilesQueryKey(image),
    queryFn: () => fetchPrintFiles(image),
    refetchInterval: (query) => (anyPrintFileRunning(query.state.data) ? POLL_MS : false),
  });
}

/** A file just ordered goes first in the list, which then polls for its progress. */
export function addOrderedPrintFile(client: QueryClient, file: PrintFile): void {
  client.setQueryData<PrintFile[]>(printFilesQueryKey(file.image), (old) => [
    file,
    ...(old ?? []).filter((other) => other.id !== file.id),
  ]);
}

/** sRGB, as offered while the server's list is loading or could not be read. */
export const SRGB_ONLY: readonly PrintProfile[] = [
  { id: PRINT_DEFAULT_SETTINGS.profile, name: 'sRGB', colourSpace: 'rgb' },
];

/** sRGB and the operator's ICC profiles; they change only when the operator installs one. */
export function usePrintProfiles() {
  const query = useQuery({
    queryKey: ['print-profiles'],
    queryFn: fetchPrintProfiles,
    staleTime: 60_000,
  });
  const profiles = query.data && query.data.length > 0 ? query.data : SRGB_ONLY;
  return { profiles, failed: query.isError };
}

/** How long the settings must rest before the server is asked for an estimate. */
export const ESTIMATE_PAUSE_MS = 300;

/** `value`, once it has stopped changing for `ms`. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The server's estimate of the file's size for `order` (undefined while the settings are not
 * valid), asked once the settings rest: typing 1200 asks for 1200 only.
 */
export function usePrintEstimate(order: PrintOrder | undefined) {
  // Compared by value: a new object with the same settings is the same question.
  const key = order === undefined ? undefined : JSON.stringify(order);
  const settledKey = useSettled(key, ESTIMATE_PAUSE_MS);
  const settledOrder =
    settledKey === undefined ? undefined : (JSON.parse(settledKey) as PrintOrder);
  const query = useQuery({
    queryKey: ['print-estimate', settledKey],
    queryFn: () => (settledOrder ? fetchPrintEstimate(settledOrder) : Promise.reject(new Error())),
    enabled: settledOrder !== undefined,
    staleTime: 60_000,
  });
  const current = key !== undefined && key === settledKey;
  return {
    estimate: current ? query.data : undefined,
    pending: key !== undefined && (!current || query.isPending),
    failed: current && query.isError,
  };
}
