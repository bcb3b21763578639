import {
  ENGINE_STATES,
  formatUsageDay,
  type AdminUsage,
  type Locale,
  type USAGE_TEXTS,
  type EngineState,
  type UsageEngine,
} from '@tessera/contract';
import type { BarChartData } from './bar-chart';

/** The charts' texts in the language shown. */
type UsageTexts = typeof USAGE_TEXTS;

// Colours readable on the light and the dark themes; "others" stays grey.
const LD_COLOR = '#4f7ae0';
const HD_COLOR = '#e08a1e';
const USER_COLORS = ['#4f7ae0', '#e08a1e', '#2e9d6a', '#b34bb8', '#d2554a'];
const OTHERS_COLOR = '#9aa3b2';
const QUEUED_COLOR = '#9aa3b2';
const RUNNING_COLOR = '#2e9d6a';
export const STATE_COLORS: Record<EngineState, string> = {
  up: '#2e9d6a',
  checking: '#9aa3b2',
  incomplete: '#e0b21e',
  failing: '#e08a1e',
  down: '#d2554a',
};

/** What the charts draw, from the API's answer: built once per answer. */
export interface UsageCharts {
  images: BarChartData;
  users: BarChartData;
  queue: BarChartData;
  engines: BarChartData;
}

export function usageCharts(usage: AdminUsage, T: UsageTexts, locale: Locale): UsageCharts {
  const days = usage.days.map((d) => formatUsageDay(d.day, locale));
  const userSeries = usage.topUsers.map((username, rank) => ({
    label: username,
    data: usage.days.map((d) => d.byUser[rank] ?? 0),
    color: USER_COLORS[rank % USER_COLORS.length] ?? OTHERS_COLOR,
  }));
  const others = usage.days.map((d) => d.others);
  const engineStates = engineStateCounts(usage.engines);
  return {
    images: {
      labels: days,
      stacked: true,
      series: [
        { label: T.ld, data: usage.days.map((d) => d.ldImages), color: LD_COLOR },
        { label: T.hd, data: usage.days.map((d) => d.hdImages), color: HD_COLOR },
      ],
    },
    users: {
      labels: days,
      stacked: true,
      series: others.some((n) => n > 0)
        ? [...userSeries, { label: T.others, data: others, color: OTHERS_COLOR }]
        : userSeries,
    },
    queue: {
      labels: usage.queue.map((q) => T.kinds[q.kind]),
      stacked: true,
      horizontal: true,
      series: [
        { label: T.running, data: usage.queue.map((q) => q.running), color: RUNNING_COLOR },
        { label: T.queued, data: usage.queue.map((q) => q.queued), color: QUEUED_COLOR },
      ],
    },
    engines: {
      labels: engineStates.map(([state]) => T.states[state]),
      horizontal: true,
      hideLegend: true,
      series: [
        {
          label: T.servers,
          data: engineStates.map(([, count]) => count),
          color: engineStates.map(([state]) => STATE_COLORS[state]),
        },
      ],
    },
  };
}

/** How many engines are in each state, every state listed (a state at 0 is news too). */
export function engineStateCounts(engines: UsageEngine[]): [EngineState, number][] {
  return ENGINE_STATES.map((state) => [state, engines.filter((e) => e.state === state).length]);
}

/** How an engine is named on the screen: a ComfyUI server by its host:port. */
export function engineName(engine: UsageEngine, T: UsageTexts): string {
  return engine.label ?? T.builtinEngine;
}
