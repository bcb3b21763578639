// The texts of the app's frame (issue 30, part 5): the login screen, the sidebar, the language
// switch, the messaging connection, start-up, the session check and its password prompt, and
// the unknown address. The spec's own ("User", "Password", "Sign in", and the screens it names:
// Dashboard, Generate, Output) are verbatim in the default language; the rest is ours, in Spanish.
import type { Translation } from './i18n.js';

export const SHELL_TEXTS = {
  loginLead: 'Introduce los datos de tu cuenta para continuar.',
  user: 'User',
  password: 'Password',
  signIn: 'Sign in',
  mainNavigation: 'Principal',
  nav: {
    dashboard: 'Dashboard',
    generate: 'Generate',
    output: 'Output',
    /** The spec gives these two routes icons and no text: ours. */
    upscale: 'Cola HD',
    input: 'Referencias',
  },
  signedInAs: (username: string) => `Sesión iniciada como ${username}`,
  signOut: 'Cerrar sesión',
  /** Names the group of language buttons. */
  language: 'Idioma',

  /** The messaging connection in the sidebar; its last error is the tooltip. */
  connection: {
    label: 'Conexión de mensajería',
    connected: 'Conectado',
    connecting: 'Conectando…',
    disconnected: 'Desconectado',
    /** A request still waiting when the client closed (sign out, a new login). */
    closed: 'La conexión de mensajería se ha cerrado',
    /** The server refused a request without a text of its own. */
    requestFailed: (action: string) => `La petición ${action} no ha salido bien`,
  },

  /** A tab with the session cookie and no messaging password asks for it once. */
  reconnectTitle: 'Escribe tu contraseña para volver a conectar',
  reconnectNote: 'Esta pestaña necesita tu contraseña una vez para recibir los avisos al momento.',
  reconnect: 'Volver a conectar',

  loading: 'Cargando…',
  retry: 'Reintentar',
  startupFailedTitle: 'Tessera no ha podido arrancar',
  startupStepFailed: (step: string, reason: string) => `No se ha podido cargar ${step}: ${reason}`,
  startupSteps: {
    title: 'el título de la página',
    theme: 'el tema',
    broker: 'la dirección de mensajería',
  },
  unknownError: 'error desconocido.',
  sessionCheckFailed: 'No se ha podido comprobar tu sesión',

  notFoundTitle: 'Página no encontrada',
  notFoundText: 'No hay nada en esta dirección.',
  notFoundLink: 'Ir al Dashboard',

  /** A refusal without the server's own text. */
  serverStatus: (status: number) => `El servidor ha respondido con el estado ${status}.`,
  /** A request that never reached the server. */
  unreachable: 'No se ha podido contactar con el servidor.',
  /** An answer the app cannot read. */
  unexpectedAnswer: 'El servidor ha enviado una respuesta inesperada.',
} as const;

export const SHELL_TEXTS_EN: Translation<typeof SHELL_TEXTS> = {
  loginLead: 'Enter your account details to continue.',
  user: 'User',
  password: 'Password',
  signIn: 'Sign in',
  mainNavigation: 'Main',
  nav: {
    dashboard: 'Dashboard',
    generate: 'Generate',
    output: 'Output',
    upscale: 'Upscale',
    input: 'Input',
  },
  signedInAs: (username: string) => `Signed in as ${username}`,
  signOut: 'Sign out',
  language: 'Language',

  connection: {
    label: 'Messaging connection',
    connected: 'Connected',
    connecting: 'Connecting…',
    disconnected: 'Disconnected',
    closed: 'The messaging connection was closed',
    requestFailed: (action: string) => `The ${action} request failed`,
  },

  reconnectTitle: 'Enter your password to reconnect',
  reconnectNote: 'This tab needs your password once to receive live updates.',
  reconnect: 'Reconnect',

  loading: 'Loading…',
  retry: 'Retry',
  startupFailedTitle: 'Tessera could not start',
  startupStepFailed: (step: string, reason: string) => `Loading ${step} failed: ${reason}`,
  startupSteps: {
    title: 'the page title',
    theme: 'the theme',
    broker: 'the messaging address',
  },
  unknownError: 'unknown error.',
  sessionCheckFailed: 'Your session could not be checked',

  notFoundTitle: 'Page not found',
  notFoundText: 'There is nothing at this address.',
  notFoundLink: 'Go to the dashboard',

  serverStatus: (status: number) => `The server answered with status ${status}.`,
  unreachable: 'Could not reach the server.',
  unexpectedAnswer: 'The server sent an unexpected answer.',
};
