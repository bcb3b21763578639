// The HD queue screen (/upscale, beyond the spec) and the HD notifications around the toast
// (issue 30, part 5): Spanish, with English twins. The toast's own texts are the spec's (TEXTS).
import type { Translation } from './i18n.js';

export const UPSCALE_TEXTS = {
  title: 'Cola de HD',
  lead: 'Tus pedidos de HD mientras esperan, se procesan y terminan.',
  pause: 'Pausar la cola',
  resume: 'Reanudar la cola',
  queueState: 'Estado de la cola',
  paused:
    'Tu cola está en pausa: los trabajos en cola esperan hasta que la reanudes. El que ya está en marcha termina.',
  dismiss: 'Cerrar',
  loading: 'Cargando los trabajos de HD…',
  loadFailed: 'No se han podido cargar los trabajos de HD.',
  tryAgain: 'Reintentar',
  empty: 'Aún no hay trabajos de HD.',
  /** "Open an image on the <Dashboard> and choose Generate HD.", around the link. */
  emptyHint: { before: 'Abre una imagen en el', link: 'Dashboard', after: 'y elige Generate HD.' },
  groups: {
    running: 'En curso',
    queued: 'En cola',
    finished: 'Terminados',
    failed: 'Fallidos',
    cancelled: 'Cancelados',
  },
  jobCount: (count: number) => `${count} ${count === 1 ? 'trabajo' : 'trabajos'}`,
  columns: {
    preview: 'Vista previa',
    image: 'Imagen',
    size: 'Tamaño',
    ordered: 'Pedido',
    status: 'Estado',
  },
  progressOf: (image: string) => `Progreso de ${image}`,
  waiting: 'En espera',
  waitingRetry: 'Esperando para reintentar',
  next: 'el siguiente',
  moveToTop: 'Subir al principio',
  moving: 'Subiendo…',
  moveJob: (image: string, size: string) =>
    `Subir al principio el trabajo de HD de ${image} (${size})`,
  cancel: 'Cancelar',
  cancelling: 'Cancelando…',
  cancelJob: (image: string, size: string) => `Cancelar el trabajo de HD de ${image} (${size})`,
  finished: 'Terminado',
  failed: 'Fallido',
  cancelled: 'Cancelado',
  cancelFailed: (image: string, size: string) =>
    `No se ha podido cancelar el trabajo de HD de ${image} (${size})`,
  moveFailed: (image: string, size: string) =>
    `No se ha podido subir al principio el trabajo de HD de ${image} (${size})`,
  pauseFailed: 'No se ha podido pausar la cola',
  resumeFailed: 'No se ha podido reanudar la cola',
} as const;

export const UPSCALE_TEXTS_EN: Translation<typeof UPSCALE_TEXTS> = {
  title: 'HD queue',
  lead: 'Your HD orders, as they wait, run and finish.',
  pause: 'Pause queue',
  resume: 'Resume queue',
  queueState: 'Queue state',
  paused:
    'Your queue is paused: queued jobs wait until you resume it. A job already running finishes.',
  dismiss: 'Dismiss',
  loading: 'Loading HD jobs…',
  loadFailed: 'Could not load the HD jobs.',
  tryAgain: 'Try again',
  empty: 'No HD jobs yet.',
  emptyHint: {
    before: 'Open an image on the',
    link: 'Dashboard',
    after: 'and choose Generate HD.',
  },
  groups: {
    running: 'Running',
    queued: 'Queued',
    finished: 'Finished',
    failed: 'Failed',
    cancelled: 'Cancelled',
  },
  jobCount: (count: number) => `${count} ${count === 1 ? 'job' : 'jobs'}`,
  columns: {
    preview: 'Preview',
    image: 'Image',
    size: 'Size',
    ordered: 'Ordered',
    status: 'Status',
  },
  progressOf: (image: string) => `Progress of ${image}`,
  waiting: 'Waiting',
  waitingRetry: 'Waiting to retry',
  next: 'next',
  moveToTop: 'Move to top',
  moving: 'Moving…',
  moveJob: (image: string, size: string) => `Move HD job for ${image} (${size}) to the top`,
  cancel: 'Cancel',
  cancelling: 'Cancelling…',
  cancelJob: (image: string, size: string) => `Cancel HD job for ${image} (${size})`,
  finished: 'Finished',
  failed: 'Failed',
  cancelled: 'Cancelled',
  cancelFailed: (image: string, size: string) =>
    `Could not cancel the HD job for ${image} (${size})`,
  moveFailed: (image: string, size: string) =>
    `Could not move the HD job for ${image} (${size}) to the top`,
  pauseFailed: 'Could not pause the queue',
  resumeFailed: 'Could not resume the queue',
};

/** The toast's frame, the sidebar's opt-in and the browser notifications of HD jobs. */
export const HD_NOTIFICATION_TEXTS = {
  /** The toast's live region and the sidebar's bell. */
  label: 'Notificaciones de HD',
  clickToClose: 'Haz clic para cerrar',
  close: 'Cerrar la notificación',
  setting: {
    on: 'Notificaciones activadas: te avisamos cuando una imagen HD termina o falla mientras estás en otra parte',
    off: 'Avísame cuando una imagen HD termine o falle mientras estoy en otra parte',
    blocked: 'Las notificaciones de este sitio están bloqueadas en la configuración del navegador',
    unsupported: 'Este navegador no puede mostrar notificaciones',
  },
  readyTitle: 'Imagen HD lista',
  /** `made` is the HD file's name, or theHdImage when the message has none. */
  readyBody: (made: string, image: string) => `${made} (de ${image}) está lista.`,
  theHdImage: 'La imagen HD',
  failedTitle: 'La imagen HD ha fallado',
  failedBody: (image: string, why: string) => `${image}: ${why}`,
  failedReason: 'el trabajo de HD ha fallado',
} as const;

export const HD_NOTIFICATION_TEXTS_EN: Translation<typeof HD_NOTIFICATION_TEXTS> = {
  label: 'HD notifications',
  clickToClose: 'Click to close',
  close: 'Close notification',
  setting: {
    on: 'Notifications on: you hear when an HD image finishes or fails while you are elsewhere',
    off: 'Notify me when an HD image finishes or fails while I am elsewhere',
    blocked: 'Notifications are blocked for this site in the browser settings',
    unsupported: 'This browser cannot show notifications',
  },
  readyTitle: 'HD image ready',
  readyBody: (made: string, image: string) => `${made} (from ${image}) is ready.`,
  theHdImage: 'The HD image',
  failedTitle: 'HD image failed',
  failedBody: (image: string, why: string) => `${image}: ${why}`,
  failedReason: 'the HD job failed',
};
