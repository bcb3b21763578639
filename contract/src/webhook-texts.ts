// Webhooks (issue 30, part 3): the screens' paths and every text they show or the server answers,
// in Spanish (the default) and in English, the same keys in both.
import type { WebhookAttemptError, WebhookDeliveryState, WebhookEventType } from './webhooks.js';

/** The user's webhooks screen; the admins' tab for everyone's is ADMIN_SCREEN_PATHS.webhooks. */
export const WEBHOOKS_SCREEN_PATH = '/webhooks';

export const WEBHOOK_TEXTS = {
  navLabel: 'Webhooks',
  title: 'Webhooks',
  intro:
    'Direcciones a las que Tessera avisa cuando termina un trabajo tuyo. Cada aviso va firmado ' +
    '(Standard Webhooks) y se reintenta durante un día si la dirección no responde.',
  adminTab: 'Webhooks',
  adminTitle: 'Webhooks de todos los usuarios',
  adminIntro:
    'Estas direcciones reciben los avisos de los trabajos de todos los usuarios del estudio.',
  loadError: 'No se han podido obtener los webhooks.',
  empty: 'Todavía no hay ningún webhook.',
  add: 'Añadir webhook',
  urlLabel: 'URL',
  eventsLabel: 'Eventos',
  activeLabel: 'Activo',
  create: 'Crear',
  save: 'Guardar',
  edit: 'Editar',
  remove: 'Eliminar',
  removeConfirm: (url: string) => `¿Eliminar el webhook ${url} y sus entregas?`,
  pause: 'Pausar',
  resume: 'Reanudar',
  paused: 'En pausa',
  active: 'Activo',
  sendTest: 'Enviar evento de prueba',
  testQueued: 'Se ha puesto en cola un evento de prueba.',
  deliveries: 'Entregas',
  hideDeliveries: 'Ocultar entregas',
  refresh: 'Actualizar',
  resend: 'Reenviar',
  resent: 'La entrega se enviará de nuevo.',
  noDeliveries: 'Todavía no hay entregas.',
  secretTitle: 'Secreto de firma',
  secretNote: 'Cópialo ahora: no se volverá a mostrar. Sirve para comprobar las firmas.',
  columns: {
    event: 'Evento',
    time: 'Hora',
    attempts: 'Intentos',
    lastStatus: 'Último resultado',
    nextRetry: 'Próximo intento',
    actions: 'Acciones',
  },
  noResponse: 'Sin respuesta',
  none: '—',
  statusCode: (status: number) => `HTTP ${status}`,
  events: {
    'preview.finished': 'Vista previa terminada',
    'preview.failed': 'Vista previa fallida',
    'series.finished': 'Serie terminada',
    'hd.finished': 'HD terminada',
    'hd.failed': 'HD fallida',
    'material-maps.ready': 'Mapas de material listos',
  } satisfies Record<WebhookEventType, string>,
  states: {
    pending: 'Pendiente',
    sending: 'Enviando',
    delivered: 'Entregada',
    failed: 'Fallida',
  } satisfies Record<WebhookDeliveryState, string>,
  errors: {
    invalid:
      'El webhook no es válido: una URL http(s) sin usuario ni contraseña y al menos un evento.',
    notFound: 'Ese webhook no existe.',
    deliveryNotFound: 'Esa entrega no existe.',
    tooMany: (max: number) => `No se pueden tener más de ${max} webhooks.`,
    adminOnly: 'Solo un administrador puede gestionar los webhooks de todos los usuarios.',
  },
  /** What an attempt's error column says; the detail stays in the server's log. */
  attemptErrors: {
    timeout: 'Sin respuesta a tiempo',
    refused: 'No se pudo conectar',
    redirect: 'Redirección (no se sigue)',
    status: 'Respuesta no 2xx',
    network: 'Error de red',
  } satisfies Record<WebhookAttemptError, string>,
  // Secret rotation (the card's button, its confirmation, the new secret shown once).
  rotateSecret: 'Renovar secreto',
  rotateTitle: 'Renovar el secreto de firma',
  rotateNote: (hours: number) =>
    `Se creará un secreto nuevo. Durante ${hours} horas cada aviso llevará dos firmas, una con ` +
    'el secreto nuevo y otra con el actual, para que tengas tiempo de cambiarlo en el receptor; ' +
    'después, solo la del nuevo.',
  rotate: 'Renovar',
  newSecretTitle: 'Nuevo secreto de firma',
  rotatedNote: (until: string) =>
    `Cópialo ahora: no se volverá a mostrar. Hasta el ${until} los avisos llevarán también la ` +
    'firma del secreto anterior.',
  previousSecretUntil: (until: string) =>
    `Los avisos llevan también la firma del secreto anterior hasta el ${until}.`,
};

export type WebhookTexts = typeof WEBHOOK_TEXTS;

export const WEBHOOK_TEXTS_EN: WebhookTexts = {
  navLabel: 'Webhooks',
  title: 'Webhooks',
  intro:
    'Addresses Tessera tells when a job of yours ends. Every call is signed (Standard Webhooks) ' +
    'and retried for a day while the address does not answer.',
  adminTab: 'Webhooks',
  adminTitle: "Every user's webhooks",
  adminIntro: 'These addresses hear about the jobs of every user of the studio.',
  loadError: 'The webhooks could not be loaded.',
  empty: 'No webhooks yet.',
  add: 'Add webhook',
  urlLabel: 'URL',
  eventsLabel: 'Events',
  activeLabel: 'Active',
  create: 'Create',
  save: 'Save',
  edit: 'Edit',
  remove: 'Remove',
  removeConfirm: (url: string) => `Remove the webhook ${url} and its deliveries?`,
  pause: 'Pause',
  resume: 'Resume',
  paused: 'Paused',
  active: 'Active',
  sendTest: 'Send test event',
  testQueued: 'A test event is on its way.',
  deliveries: 'Deliveries',
  hideDeliveries: 'Hide deliveries',
  refresh: 'Refresh',
  resend: 'Resend',
  resent: 'The delivery will be sent again.',
  noDeliveries: 'No deliveries yet.',
  secretTitle: 'Signing secret',
  secretNote: 'Copy it now: it will not be shown again. It checks the signatures.',
  columns: {
    event: 'Event',
    time: 'Time',
    attempts: 'Attempts',
    lastStatus: 'Last result',
    nextRetry: 'Next try',
    actions: 'Actions',
  },
  noResponse: 'No response',
  none: '—',
  statusCode: (status: number) => `HTTP ${status}`,
  events: {
    'preview.finished': 'Preview finished',
    'preview.failed': 'Preview failed',
    'series.finished': 'Series finished',
    'hd.finished': 'HD finished',
    'hd.failed': 'HD failed',
    'material-maps.ready': 'Material maps ready',
  },
  states: {
    pending: 'Pending',
    sending: 'Sending',
    delivered: 'Delivered',
    failed: 'Failed',
  },
  errors: {
    invalid:
      'The webhook is not valid: an http(s) URL without a user or password, and an event at least.',
    notFound: 'No such webhook.',
    deliveryNotFound: 'No such delivery.',
    tooMany: (max: number) => `No more than ${max} webhooks.`,
    adminOnly: "Only an administrator may manage every user's webhooks.",
  },
  attemptErrors: {
    timeout: 'No answer in time',
    refused: 'Could not connect',
    redirect: 'Redirect (not followed)',
    status: 'Answer outside 2xx',
    network: 'Network error',
  },
  rotateSecret: 'Rotate secret',
  rotateTitle: 'Rotate the signing secret',
  rotateNote: (hours: number) =>
    `A new secret is made. For ${hours} hours every delivery carries two signatures, one made ` +
    'with the new secret and one with the current one, so you have time to change it at the ' +
    'receiver; after that, only the new one.',
  rotate: 'Rotate',
  newSecretTitle: 'New signing secret',
  rotatedNote: (until: string) =>
    `Copy it now: it will not be shown again. Until ${until} deliveries also carry the previous ` +
    "secret's signature.",
  previousSecretUntil: (until: string) =>
    `Deliveries also carry the previous secret's signature until ${until}.`,
};
