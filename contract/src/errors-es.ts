// The server's refusals (errors.ts) in Spanish, under the same codes: a code without its twin
// does not compile. The server keeps answering in English (clients and scripts read those texts);
// the web shows the twin in the Spanish interface (localizeServerText). The spec's own texts
// among them are the spec's, verbatim.
import { MAX_COMMAND_BYTES } from './constants.js';
import { SERVER_ERROR_TEXTS } from './errors.js';
import { textPair, type Translation } from './i18n.js';
import { MATERIAL_HEIGHT_STRENGTH_RANGE } from './material-maps.js';
import { REFERENCE_ERROR_TEXTS } from './reference-analysis.js';
import { TEXTS } from './texts.js';

const HEIGHT = MATERIAL_HEIGHT_STRENGTH_RANGE;

export const SERVER_ERROR_TEXTS_ES: Translation<typeof SERVER_ERROR_TEXTS> = {
  NOT_SIGNED_IN: 'No has iniciado sesión',
  NOT_FOUND: 'No encontrado',
  INTERNAL: 'Error interno del servidor',
  CROSS_ORIGIN_REQUEST:
    'Esta petición venía de una página ajena a Tessera y se ha rechazado. Haz este cambio desde Tessera.',
  METRICS_TOKEN_REQUIRED: 'Las métricas necesitan el token bearer que fija METRICS_TOKEN',
  DISK_FULL: 'El servidor se ha quedado sin espacio en disco. Inténtalo más tarde.',
  IMAGE_UNREADABLE: 'No se ha podido leer la imagen: está dañada o incompleta',
  FILE_STORE_UNREACHABLE:
    'Ahora mismo no se llega al almacenamiento de imágenes. Inténtalo dentro de unos minutos.',
  FILE_STORE_RETRYING:
    'Ahora mismo no se llega al almacenamiento de imágenes; Tessera sigue intentándolo y el trabajo continuará cuando responda.',
  JOB_FAILED: 'No se ha podido hacer la imagen por un problema en el servidor',

  LOGIN_FIELDS_MISSING: 'Escribe un nombre de usuario y una contraseña',
  INVALID_CREDENTIALS: 'Usuario o contraseña incorrectos',
  TOO_MANY_SIGN_INS: (seconds: number) =>
    `Demasiados intentos de inicio de sesión. Vuelve a intentarlo dentro de ${seconds} segundos.`,
  ACCOUNT_DISABLED: 'Esta cuenta está desactivada. Consulta a un administrador.',

  API_TOKEN_INVALID: 'Este token de API no es válido: es desconocido, ha caducado o se ha revocado',
  API_TOKEN_NOT_ACCEPTED:
    'Esta llamada necesita la sesión del navegador: no se puede usar un token de API para ella',
  API_TOKEN_SCOPE_MISSING: (scope: string) =>
    `A este token de API le falta el permiso '${scope}' que necesita esta llamada`,
  API_TOKEN_REQUEST_INVALID:
    'Un token necesita un nombre de 1 a 64 caracteres, al menos un permiso (read, generate o manage) y una caducidad de 30, 90 o 365 días, o ninguna',
  API_TOKEN_LIMIT_REACHED: (limit: number) =>
    `Ya tienes ${limit} tokens de API, el máximo por usuario. Revoca uno para crear otro.`,
  API_TOKEN_UNKNOWN: 'No tienes ningún token de API con este id',
  LIST_REQUEST_INVALID: (max: number) =>
    `page debe ser un número entero desde 1, y size uno de 1 a ${max}`,
  TAG_REQUEST_INVALID:
    'La petición necesita el id de una etiqueta y el nombre de archivo de una imagen',
  HD_ORDER_INVALID:
    'Un pedido HD necesita un id, el nombre de archivo de una de tus imágenes LD y uno de los tamaños HD (como 30x30)',
  STAR_REQUEST_INVALID:
    'La petición necesita el nombre de archivo de una de tus imágenes LD y starred, true o false',
  IMAGE_REQUEST_INVALID: 'La petición necesita el nombre de archivo de la imagen',
  TAG_FIELDS_INVALID:
    'Una etiqueta necesita un id de 1 a 64 letras, cifras, _ o -, un nombre y un color hexadecimal como #a1b2c3',
  TAG_ID_INVALID: 'La petición necesita el id de la etiqueta: de 1 a 64 letras, cifras, _ o -',

  ADMIN_ONLY: 'Solo un administrador puede hacer esto',
  ADMIN_REQUEST_INVALID: 'La petición no es válida para esta acción de administración',
  USERNAME_INVALID: (username: string) =>
    `'${username}' no es un nombre de usuario válido: usa de 1 a 64 letras, dígitos, '_', '.' o '-'`,
  USER_EXISTS: (username: string) => `El usuario '${username}' ya existe`,
  USER_UNKNOWN: (username: string) => `No existe el usuario '${username}'`,
  USER_RETIRED: (username: string) =>
    `'${username}' se eliminó conservando sus imágenes: la cuenta no se puede volver a usar`,
  PASSWORD_TOO_SHORT: (min: number) => `La contraseña debe tener al menos ${min} caracteres`,
  PASSWORD_TOO_LONG: (max: number) => `La contraseña debe tener como máximo ${max} caracteres`,
  PASSWORDS_DIFFER: 'Las contraseñas no coinciden',
  LAST_ADMIN: (username: string) =>
    `'${username}' es el último administrador activo: haz antes administrador a otro usuario`,
  USER_NOT_RETIRED: (username: string) =>
    `'${username}' todavía tiene cuenta: elimínalo conservando sus imágenes antes de hacerte cargo de ellas`,
  TAKE_OVER_NOT_ADMIN: (username: string) =>
    `'${username}' no es un administrador activo: solo uno puede hacerse cargo de imágenes`,
  QUOTA_INVALID:
    'Una cuota debe quedar vacía (la de por defecto) o ser un número entero dentro de su rango',
  ROLE_UNKNOWN: (role: string) => `'${role}' no es un rol: usa admin o member`,
  RETENTION_OFF:
    'No hay política de retención HD: fija HD_RETENTION_DAYS para eliminar los archivos HD antiguos',
  BROKER_NOT_UPDATED:
    'Guardado, pero no se ha podido actualizar el broker de mensajería: el próximo arranque del servidor lo pondrá al día',

  UPLOAD_MISSING: 'No se ha subido ninguna imagen',
  UPLOAD_TOO_LARGE: TEXTS.uploadTooLarge,
  FORM_USER_MISMATCH: 'El usuario del formulario no es el que ha iniciado sesión',
  FORM_MALFORMED:
    'No se ha podido leer el formulario: no es un cuerpo multipart/form-data completo',
  JOB_ID_TAKEN: 'Ya hay un trabajo con este id en cola o en curso',
  NO_GENERATION_YET: 'Todavía no hay ninguna generación',
  PREVIEW_QUEUE_FULL: (limit: number) =>
    `Ya tienes ${limit} vistas previas esperando. Espera a que terminen antes de pedir más.`,

  // "1.5 GB" as the server writes it; a quota amount has no thousands, only a decimal point.
  STORAGE_QUOTA_EXCEEDED: (quota: string) =>
    `Tu cuota de almacenamiento de ${quota.replace('.', ',')} está llena. Borra algunas imágenes o pide más espacio a un administrador.`,

  ORDERED_IMAGE_NOT_FOUND: (image: string) => `No se ha encontrado la imagen '${image}'`,
  HD_SIZE_NOT_OFFERED: (size: string) =>
    `El tamaño ${size} no se ofrece para el formato de esta imagen`,
  IMAGE_GONE: (image: string) => `La imagen '${image}' ya no existe`,
  HD_WRONG_SIZE: 'El motor ha escrito una imagen de tamaño incorrecto',
  HD_UPSCALER_UNAVAILABLE:
    'En este servidor no se pueden hacer imágenes HD: su escalador no funciona aquí. Avisa al administrador.',
  HD_QUEUE_FULL: (limit: number) =>
    `Ya tienes ${limit} imágenes HD esperando. Espera a que terminen algunas antes de pedir más.`,
  HD_JOB_NOT_QUEUED: 'Solo se puede cancelar un trabajo en cola',
  HD_JOB_NOT_QUEUED_TO_MOVE: 'Solo se puede mover un trabajo en cola',
  HD_JOB_UNKNOWN: 'No existe ese trabajo',
  HD_JOB_ID_MISSING: 'La petición necesita el id del trabajo',
  HD_JOB_CANCELLED: 'Se ha cancelado el trabajo HD',
  HD_ALREADY_ORDERED: (image: string, size: string) =>
    `Ya hay una imagen HD de '${image}' en ${size} en camino`,

  MAPS_REQUEST_INVALID: `La petición necesita la galería ('ld' o 'hd') y el nombre de archivo de la imagen`,
  MAPS_QUEUE_FULL: (limit: number) =>
    `Como mucho pueden esperar a la vez ${limit} trabajos de mapas de material`,
  MAPS_HEIGHT_INVALID: `La altura necesita 'invert' (true o false) y una intensidad de ${HEIGHT.min} a ${HEIGHT.max} en pasos de ${HEIGHT.step}`,
  MAPS_HEIGHT_BUSY:
    'Los mapas de esta imagen se están haciendo con otros ajustes de altura. Vuelve a hacerlos cuando terminen.',

  PRINT_REQUEST_INVALID:
    'El archivo de impresión necesita la imagen HD, una resolución de 72 a 1200 ppp, un sangrado de 0 a 20 mm en pasos de 0,5, LZW o Deflate, 8 o 16 bits y un perfil de color',
  PRINT_PROFILE_UNKNOWN: (profile: string) =>
    `El perfil de color '${profile}' no está instalado en este servidor`,
  PRINT_QUEUE_FULL: (limit: number) =>
    `Ya tienes ${limit} archivos de impresión en preparación. Espera a que termine uno antes de pedir más.`,
  PRINT_ALREADY_ORDERED:
    'Ya hay en camino un archivo de impresión de esta imagen con estos ajustes',

  MATERIAL_PACKAGE_REQUEST_INVALID: `El paquete de material necesita la galería ('ld' o 'hd'), el nombre de archivo de la imagen y un preajuste (standard, unreal o unity-hdrp)`,
  MATERIAL_PACKAGE_NO_MAPS:
    'Haz primero los mapas de material: el paquete se hace a partir de ellos',

  REFERENCE_CHECKS_BUSY: REFERENCE_ERROR_TEXTS.busy,

  IMAGE_NOT_FOUND: (filename: string) => `Imagen '${filename}' no encontrada`,
  TAG_NOT_FOUND: (id: string) => `No se ha encontrado la etiqueta '${id}'`,
  TAG_ID_TAKEN: (id: string) => `Ya existe una etiqueta con el id '${id}'`,
  TAG_NAME_TAKEN: TEXTS.tagDuplicate,
  TAG_LIMIT_REACHED: (limit: number) =>
    `Ya tienes ${limit} etiquetas, el máximo por usuario. Borra una para crear otra.`,

  COMMAND_MALFORMED: 'El comando no es JSON válido',
  COMMAND_TOO_LARGE: `El comando ocupa más de ${MAX_COMMAND_BYTES} bytes`,
  COMMANDS_TOO_FAST: 'Demasiados comandos a la vez; inténtalo de nuevo en un momento',
  COMMAND_USER_MISMATCH: 'El usuario del mensaje no coincide con el del topic',
  UNKNOWN_ACTION: (action: string) => `Acción desconocida '${action}'`,
  UNKNOWN_USER: 'Usuario desconocido',
  COMMAND_FAILED: 'El comando ha fallado en el servidor',

  ZIP_REQUEST_INVALID: `La petición necesita la galería ('ld' o 'hd') y los nombres de archivo de las imágenes`,
  ZIP_UNKNOWN_TOKEN: 'No existe esa descarga',
  ZIP_UNKNOWN_IMAGE: (name: string) => `No existe la imagen: ${name}`,
  ZIP_TOO_MANY: 'Demasiadas descargas ZIP a la vez: espera a que termine una',
  ZIP_EXPIRED: 'Esta descarga ha caducado o ya se ha usado: vuelve a empezarla',
  ZIP_INTERRUPTED: 'La descarga se ha detenido antes del final',
  ZIP_READ_FAILED: 'No se ha podido leer una imagen: la descarga se ha detenido',
};

/**
 * The refusals as a pair: Spanish (the interface's default) and the English the server sends.
 * Not in TEXT_BUNDLES: the server writes the English side, so only localizeServerText reads it.
 */
export const SERVER_ERROR_TEXT_PAIR = textPair(SERVER_ERROR_TEXTS_ES, SERVER_ERROR_TEXTS);
