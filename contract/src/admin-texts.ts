// The administrator's screens (issue 29, parts 2 and 5): their paths and every text they show.
// Spanish, like the rest of the UI's own texts; numbers and dates in the es-ES locale.
import type { AuditAction, UserRole } from './admin.js';
import { DEFAULT_LOCALE, INTL_LOCALES, type Locale } from './i18n.js';

/** Every admin screen's path begins with this (it alone leads to the users screen). */
export const ADMIN_SCREENS_ROOT = '/admin';

/** The admin screens; the sidebar shows their link to admins only. */
export const ADMIN_SCREEN_PATHS = {
  users: '/admin/users',
  audit: '/admin/audit',
  retention: '/admin/retention',
  /** Webhooks for every user's events (issue 30, part 3). */
  webhooks: '/admin/webhooks',
} as const;

const NUMBERS = {
  es: new Intl.NumberFormat(INTL_LOCALES.es, { maximumFractionDigits: 1 }),
  en: new Intl.NumberFormat(INTL_LOCALES.en, { maximumFractionDigits: 1 }),
} satisfies Record<Locale, Intl.NumberFormat>;
const STORAGE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in human units (1024 steps), es-ES: 0 B, 512 B, 1,5 MB, 12,3 GB. */
export function formatStorage(bytes: number, locale: Locale = DEFAULT_LOCALE): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < STORAGE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? String(value) : NUMBERS[locale].format(value)} ${STORAGE_UNITS[unit]}`;
}

/** A date and time of the admin screens, es-ES by default (as the galleries show dates). */
export function formatAdminDate(
  iso: string,
  timeZone?: string,
  locale: Locale = DEFAULT_LOCALE,
): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(INTL_LOCALES[locale], { timeZone });
}

export const ADMIN_TEXTS = {
  navLabel: 'Administración',
  usersTab: 'Usuarios',
  auditTab: 'Registro de actividad',
  tabsLabel: 'Secciones de administración',
  usersTitle: 'Usuarios',
  usersIntro: 'Las personas del estudio, su uso y sus permisos.',
  usersLoadError: 'No se ha podido obtener la lista de usuarios.',
  refresh: 'Actualizar',
  columns: {
    name: 'Nombre',
    role: 'Rol',
    created: 'Alta',
    lastSeen: 'Última actividad',
    images: 'Imágenes (LD/HD)',
    storage: 'Almacenamiento',
    queue: 'En cola',
    actions: 'Acciones',
  },
  roles: { admin: 'Administrador', member: 'Miembro' } satisfies Record<UserRole, string>,
  disabledBadge: 'Desactivado',
  retiredBadge: 'Eliminado, imágenes conservadas',
  never: 'Nunca',
  imagesCell: (ld: number, hd: number) => `${ld} / ${hd}`,

  createUser: 'Crear usuario',
  createTitle: 'Crear usuario',
  usernameLabel: 'Nombre de usuario',
  roleLabel: 'Rol',
  passwordChoice: 'Contraseña',
  generatePassword: 'Generar una contraseña',
  typePassword: 'Escribir una contraseña',
  passwordLabel: 'Contraseña nueva',
  create: 'Crear',

  actionsFor: (username: string) => `Acciones de ${username}`,
  resetPassword: 'Restablecer contraseña',
  resetTitle: (username: string) => `Restablecer la contraseña de ${username}`,
  resetNote: 'Se cerrarán sus sesiones y conexiones abiertas.',
  reset: 'Restablecer',
  disable: 'Desactivar',
  enable: 'Activar',
  makeAdmin: 'Hacer administrador',
  makeMember: 'Hacer miembro',
  remove: 'Eliminar',
  quotas: 'Cuotas',

  passwordShownTitle: (username: string) => `Contraseña de ${username}`,
  passwordShownNote: 'Cópiala ahora: no se volverá a mostrar.',
  passwordTyped: (username: string) => `La contraseña de ${username} se ha guardado.`,
  generatedPasswordLabel: 'Contraseña generada',

  removeTitle: (username: string) => `Eliminar a ${username}`,
  removeCounts: (ld: number, hd: number, bytes: number) =>
    `${ld} imágenes LD, ${hd} imágenes HD, ${formatStorage(bytes)}`,
  removeQuestion: '¿Qué se hace con sus imágenes?',
  removeKeep: 'Conservarlas para que un administrador se haga cargo',
  removeDelete: 'Borrarlas junto con la cuenta',
  removeConfirm: 'Eliminar usuario',
  removedKept: (username: string) => `${username} se ha eliminado; sus imágenes se conservan.`,
  removedDeleted: (username: string) => `${username} y sus imágenes se han eliminado.`,
  created: (username: string) => `Se ha creado ${username}.`,
  takeOver: 'Hacerse cargo de las imágenes',
  takeOverTitle: (username: string) => `Hacerse cargo de las imágenes de ${username}`,
  takeOverNote:
    'Pasarán a ser tuyas con sus etiquetas, estrellas, mapas de material y archivos de impresión; ' +
    'las que tengan un nombre que ya usas se renombrarán. Después se borrará la cuenta vacía.',
  takeOverConfirm: 'Hacerse cargo',
  takenOver: (username: string, ld: number, hd: number) =>
    `Ahora tienes ${ld} imágenes LD y ${hd} imágenes HD de ${username}; su cuenta se ha borrado.`,

  defaultQuotas: 'Cuotas por defecto',
  defaultQuotasSummary: (storage: string, previews: number, hd: number) =>
    `Por defecto: ${storage} de almacenamiento, ${previews} vistas previas y ${hd} pedidos HD en cola.`,
  defaultQuotasNote:
    'Se aplican a quien no tenga cuotas propias. Almacenamiento vacío: sin límite.',
  userQuotasTitle: (username: string) => `Cuotas de ${username}`,
  userQuotasNote: 'Un campo vacío sigue el valor por defecto.',
  quotaStorageLabel: 'Almacenamiento (GB)',
  quotaPreviewsLabel: 'Vistas previas en cola',
  quotaHdLabel: 'Pedidos HD en cola',
  quotaDefaultHint: (value: string) => `Por defecto: ${value}`,
  noLimit: 'sin límite',
  save: 'Guardar',
  defaultsSaved: 'Se han guardado las cuotas por defecto.',
  quotasSaved: (username: string) => `Se han guardado las cuotas de ${username}.`,
  storageCell: (used: string, quota: string | null) =>
    quota === null ? used : `${used} de ${quota}`,

  auditTitle: 'Registro de actividad',
  auditIntro: 'Quién hizo qué y cuándo, lo más reciente primero.',
  auditLoadError: 'No se ha podido obtener el registro de actividad.',
  auditEmpty: 'No hay registros con estos filtros.',
  auditColumns: {
    at: 'Cuándo',
    actor: 'Quién',
    action: 'Acción',
    target: 'Sobre',
    address: 'Dirección',
    details: 'Detalles',
  },
  filterAction: 'Acción',
  filterAnyAction: 'Todas',
  filterUser: 'Quién',
  filterTarget: 'Sobre',
  filterFrom: 'Desde',
  filterTo: 'Hasta',
  applyFilters: 'Filtrar',
  clearFilters: 'Quitar filtros',
  olderEntries: 'Más antiguos',
  newestEntries: 'Volver a los más recientes',
  auditPage: (page: number) => `Página ${page}`,
  noDetails: '—',
  actions: {
    'sign-in': 'Inicio de sesión',
    'sign-in-failed': 'Inicio de sesión fallido',
    'user-created': 'Usuario creado',
    'user-removed': 'Usuario eliminado',
    'images-taken-over': 'Imágenes traspasadas',
    'user-disabled': 'Usuario desactivado',
    'user-enabled': 'Usuario activado',
    'role-changed': 'Rol cambiado',
    'password-reset': 'Contraseña restablecida',
    'quota-changed': 'Cuota cambiada',
    'retention-run': 'Retención ejecutada',
    'api-token-created': 'Token de API creado',
    'api-token-revoked': 'Token de API revocado',
    'webhook-created': 'Webhook creado',
    'webhook-changed': 'Webhook cambiado',
    'webhook-removed': 'Webhook eliminado',
    'webhook-secret-rotated': 'Secreto de webhook renovado',
  } satisfies Record<AuditAction, string>,
} as const;
