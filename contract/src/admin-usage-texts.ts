// Usage at a glance (issue 29, part 6): the texts of the admin screen's charts, in Spanish like
// the rest of the UI's own texts; numbers and days in the es-ES locale.
import type { EngineState, UsageJobKind } from './admin-usage.js';

const COUNT = new Intl.NumberFormat('es-ES');
// The days are UTC days (YYYY-MM-DD): shown as such, whatever the browser's time zone.
const DAY = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A count of the charts, es-ES: 1.234. */
export function formatUsageCount(count: number): string {
  return COUNT.format(count);
}

/** A UTC day of the charts (YYYY-MM-DD), es-ES: "3 mar". */
export function formatUsageDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
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
