// Usage at a glance (issue 29, part 6): the texts of the admin screen's charts, in Spanish like
// the rest of the UI's own texts, with their English twin; numbers and days in the chosen locale.
import type { EngineState, UsageJobKind } from './admin-usage.js';
import { DEFAULT_LOCALE, INTL_LOCALES, type Locale, type Translation } from './i18n.js';

const COUNT = {
  es: new Intl.NumberFormat(INTL_LOCALES.es),
  en: new Intl.NumberFormat(INTL_LOCALES.en),
};
// The days are UTC days (YYYY-MM-DD): shown as such, whatever the browser's time zone.
const DAY_OPTIONS = { day: 'numeric', month: 'short', timeZone: 'UTC' } as const;
const DAY = {
  es: new Intl.DateTimeFormat(INTL_LOCALES.es, DAY_OPTIONS),
  en: new Intl.DateTimeFormat(INTL_LOCALES.en, DAY_OPTIONS),
};

/** A count of the charts: 1.234 in es-ES, 1,234 in English. */
export function formatUsageCount(count: number, locale: Locale = DEFAULT_LOCALE): string {
  return COUNT[locale].format(count);
}

/** A UTC day of the charts (YYYY-MM-DD): "3 mar" in es-ES, "3 Mar" in English. */
export function formatUsageDay(day: string, locale: Locale = DEFAULT_LOCALE): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY[locale].format(date);
}

export const USAGE_TEXTS = {
  title: 'De un vistazo',
  intro: 'Los últimos 30 días (días en UTC), y la cola y los motores en este momento.',
  loadError: 'No se ha podido obtener el uso del estudio.',
  day: 'Día',
  user: 'Usuario',

  imagesTitle: 'Imágenes hechas por día',
  ld: 'LD',
  hd: 'HD',

  usersTitle: 'Imágenes por día y usuario',
  others: 'Otros',

  queueTitle: 'Cola ahora',
  kind: 'Tipo',
  queued: 'En espera',
  running: 'En curso',
  kinds: {
    preview: 'Vistas previas',
    hd: 'HD',
    maps: 'Mapas de material',
    print: 'Impresión',
  } satisfies Record<UsageJobKind, string>,

  enginesTitle: 'Motores',
  engine: 'Motor',
  state: 'Estado',
  servers: 'Servidores',
  builtinEngine: 'Motor integrado (CPU)',
  states: {
    up: 'Disponible',
    checking: 'Comprobando',
    incomplete: 'Incompleto',
    failing: 'Fallando',
    down: 'Caído',
  } satisfies Record<EngineState, string>,
} as const;

/** USAGE_TEXTS in English (issue 30, part 5). */
export const USAGE_TEXTS_EN: Translation<typeof USAGE_TEXTS> = {
  title: 'At a glance',
  intro: 'The last 30 days (UTC days), and the queue and the engines right now.',
  loadError: "Could not get the studio's usage.",
  day: 'Day',
  user: 'User',

  imagesTitle: 'Images made per day',
  ld: 'LD',
  hd: 'HD',

  usersTitle: 'Images per day and user',
  others: 'Others',

  queueTitle: 'Queue now',
  kind: 'Kind',
  queued: 'Waiting',
  running: 'Running',
  kinds: {
    preview: 'Previews',
    hd: 'HD',
    maps: 'Material maps',
    print: 'Print',
  },

  enginesTitle: 'Engines',
  engine: 'Engine',
  state: 'State',
  servers: 'Servers',
  builtinEngine: 'Builtin engine (CPU)',
  states: {
    up: 'Available',
    checking: 'Checking',
    incomplete: 'Incomplete',
    failing: 'Failing',
    down: 'Down',
  },
};
