// The HD retention policy on the admin screen (issue 29, part 4): the policy, its dry run (what
// would go now and the space it frees), the daily runs, and a run now. Admins only.
import { z } from 'zod';
import { formatStorage } from './admin-texts.js';
import type { Translation } from './i18n.js';

/** One HD file the policy removes (a dry run: would remove), with its maps and print files. */
export const retentionItemSchema = z.object({
  owner: z.string(),
  filename: z.string(),
  /** The HD file's bytes and those of the material maps and print files made from it. */
  bytes: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type RetentionItemView = z.infer<typeof retentionItemSchema>;

/** A day's run of the policy, as the process that claimed it recorded it. */
export const retentionRunSchema = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  startedAt: z.string(),
  /** Null while it runs, or when its process stopped before finishing (the next run takes over). */
  finishedAt: z.string().nullable(),
  removed: z.number().int().nonnegative().nullable(),
  bytes: z.number().int().nonnegative().nullable(),
});
export type RetentionRunView = z.infer<typeof retentionRunSchema>;

/** GET: the policy (days 0: off), its dry run as of now, and the latest daily runs. */
export const adminRetentionSchema = z.object({
  days: z.number().int().nonnegative(),
  /** HD images made before this instant go. */
  cutoff: z.string(),
  items: z.array(retentionItemSchema),
  bytes: z.number().int().nonnegative(),
  runs: z.array(retentionRunSchema),
});
export type AdminRetention = z.infer<typeof adminRetentionSchema>;

/** POST run: what the run removed (what the dry run listed, less any ordered again meanwhile). */
export const adminRetentionRunSchema = z.object({
  cutoff: z.string(),
  items: z.array(retentionItemSchema),
  bytes: z.number().int().nonnegative(),
});
export type AdminRetentionRun = z.infer<typeof adminRetentionRunSchema>;

/** How many of the latest daily runs the screen lists. */
export const RETENTION_RUNS_SHOWN = 14;

export const RETENTION_TEXTS = {
  tab: 'Retención',
  title: 'Retención de archivos HD',
  intro:
    'Los archivos HD antiguos se eliminan cada día; la imagen LD, sus datos y la opción de volver a pedir el HD se conservan.',
  loadError: 'No se ha podido obtener la política de retención.',
  off: 'No hay política de retención: se conservan todos los archivos HD. Se activa con HD_RETENTION_DAYS.',
  policy: (days: number) => `Se eliminan los archivos HD de más de ${days} días.`,
  dryRunTitle: 'Qué se eliminaría ahora',
  dryRunSummary: (files: number, bytes: number) =>
    `${files} ${files === 1 ? 'archivo HD' : 'archivos HD'}, ${formatStorage(bytes)} liberados`,
  nothingToRemove: 'Ahora no se eliminaría ningún archivo.',
  columns: { owner: 'Usuario', file: 'Archivo', size: 'Tamaño', created: 'Creado' },
  sizeNote:
    'El tamaño incluye los mapas de material y los archivos de impresión hechos a partir del HD.',
  runNow: 'Ejecutar ahora',
  runTitle: 'Ejecutar la retención ahora',
  runQuestion: (files: number, bytes: number) =>
    `Se eliminarán ${files} ${files === 1 ? 'archivo HD' : 'archivos HD'} (${formatStorage(bytes)}). No se puede deshacer.`,
  runConfirm: 'Eliminar archivos',
  ran: (files: number, bytes: number) =>
    `Retención ejecutada: ${files} ${files === 1 ? 'archivo HD eliminado' : 'archivos HD eliminados'}, ${formatStorage(bytes)} liberados.`,
  runsTitle: 'Ejecuciones diarias',
  noRuns: 'Todavía no se ha ejecutado.',
  runsColumns: {
    day: 'Día',
    started: 'Inicio',
    finished: 'Fin',
    removed: 'Eliminados',
    freed: 'Liberado',
  },
  unfinished: 'Sin terminar',
} as const;

/** RETENTION_TEXTS in English (issue 30, part 5). */
export const RETENTION_TEXTS_EN: Translation<typeof RETENTION_TEXTS> = {
  tab: 'Retention',
  title: 'HD file retention',
  intro:
    'Old HD files are removed every day; the LD image, its data and the option to order the HD again are kept.',
  loadError: 'Could not get the retention policy.',
  off: 'No retention policy: every HD file is kept. HD_RETENTION_DAYS turns it on.',
  policy: (days: number) => `HD files older than ${days} days are removed.`,
  dryRunTitle: 'What would be removed now',
  dryRunSummary: (files: number, bytes: number) =>
    `${files} ${files === 1 ? 'HD file' : 'HD files'}, ${formatStorage(bytes, 'en')} freed`,
  nothingToRemove: 'No file would be removed now.',
  columns: { owner: 'User', file: 'File', size: 'Size', created: 'Created' },
  sizeNote: 'The size includes the material maps and print files made from the HD.',
  runNow: 'Run now',
  runTitle: 'Run the retention now',
  runQuestion: (files: number, bytes: number) =>
    `${files} ${files === 1 ? 'HD file' : 'HD files'} (${formatStorage(bytes, 'en')}) will be removed. This cannot be undone.`,
  runConfirm: 'Remove files',
  ran: (files: number, bytes: number) =>
    `Retention run: ${files} ${files === 1 ? 'HD file removed' : 'HD files removed'}, ${formatStorage(bytes, 'en')} freed.`,
  runsTitle: 'Daily runs',
  noRuns: 'Not run yet.',
  runsColumns: {
    day: 'Day',
    started: 'Started',
    finished: 'Finished',
    removed: 'Removed',
    freed: 'Freed',
  },
  unfinished: 'Unfinished',
};
