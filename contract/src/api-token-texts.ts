// The tokens screen's texts (issue 30, part 1): Spanish, the app's language, and English with the
// same keys for the two-language work (issue 30, part 5). Dates in the es-ES locale.
import type { ApiTokenScope } from './api-tokens.js';

/** A token's date as the screen shows it (es-ES); a dash for none. */
export function formatApiTokenDate(iso: string | null, locale = 'es-ES'): string {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric' });
}

export const API_TOKEN_TEXTS = {
  navLabel: 'Tokens de API',
  title: 'Tokens de API',
  intro:
    'Los scripts y otras herramientas usan la API HTTP con un token en la cabecera Authorization: Bearer. Cada token actúa en tu nombre con los permisos que le des.',
  loadError: 'No se ha podido obtener la lista de tokens.',
  empty: 'Todavía no tienes tokens.',
  createTitle: 'Nuevo token',
  create: 'Crear token',
  creating: 'Creando…',
  nameLabel: 'Nombre',
  namePlaceholder: 'p. ej. script de HD',
  scopesLabel: 'Permisos',
  scopes: {
    read: 'Leer: ver tus imágenes, etiquetas, estados y archivos',
    generate: 'Generar: vistas previas, HD, mapas de material y archivos de impresión',
    manage: 'Gestionar: etiquetas, estrellas y borrado de imágenes',
  } satisfies Record<ApiTokenScope, string>,
  scopeNames: {
    read: 'leer',
    generate: 'generar',
    manage: 'gestionar',
  } satisfies Record<ApiTokenScope, string>,
  scopesMissing: 'Elige al menos un permiso.',
  expiryLabel: 'Caducidad',
  expiryDays: (days: number) => `${days} días`,
  expiryNever: 'Sin caducidad',
  secretTitle: 'Copia tu token',
  secretNote:
    'Este es el único momento en que se muestra. Guárdalo en un lugar seguro: Tessera solo conserva una huella y no puede volver a enseñarlo.',
  secretLabel: 'Token nuevo',
  columnName: 'Nombre',
  columnScopes: 'Permisos',
  columnCreated: 'Creado',
  columnLastUsed: 'Último uso',
  columnExpires: 'Caduca',
  neverUsed: 'Nunca',
  neverExpires: 'Nunca',
  expired: 'Caducado',
  revoke: 'Revocar',
  revokeLabel: (name: string) => `Revocar ${name}`,
  revokeTitle: (name: string) => `¿Revocar el token ${name}?`,
  revokeNote: 'Los scripts que lo usen dejarán de funcionar en el acto.',
  revoked: (name: string) => `Token ${name} revocado.`,
};

export const API_TOKEN_TEXTS_EN: typeof API_TOKEN_TEXTS = {
  navLabel: 'API tokens',
  title: 'API tokens',
  intro:
    'Scripts and other tools use the HTTP API with a token in the Authorization: Bearer header. Each token acts on your behalf with the permissions you give it.',
  loadError: 'The list of tokens could not be read.',
  empty: 'You have no tokens yet.',
  createTitle: 'New token',
  create: 'Create token',
  creating: 'Creating…',
  nameLabel: 'Name',
  namePlaceholder: 'e.g. HD script',
  scopesLabel: 'Permissions',
  scopes: {
    read: 'Read: see your images, tags, statuses and files',
    generate: 'Generate: previews, HD, material maps and print files',
    manage: 'Manage: tags, stars and deleting images',
  },
  scopeNames: { read: 'read', generate: 'generate', manage: 'manage' },
  scopesMissing: 'Choose at least one permission.',
  expiryLabel: 'Expiry',
  expiryDays: (days: number) => `${days} days`,
  expiryNever: 'No expiry',
  secretTitle: 'Copy your token',
  secretNote:
    'This is the only time it is shown. Keep it somewhere safe: Tessera keeps only a fingerprint and cannot show it again.',
  secretLabel: 'New token',
  columnName: 'Name',
  columnScopes: 'Permissions',
  columnCreated: 'Created',
  columnLastUsed: 'Last used',
  columnExpires: 'Expires',
  neverUsed: 'Never',
  neverExpires: 'Never',
  expired: 'Expired',
  revoke: 'Revoke',
  revokeLabel: (name: string) => `Revoke ${name}`,
  revokeTitle: (name: string) => `Revoke the token ${name}?`,
  revokeNote: 'Scripts that use it stop working at once.',
  revoked: (name: string) => `Token ${name} revoked.`,
};
