// Auth: the login screen, the stored credentials and the session the app shell checks.
export { clearCredentials, readCredentials, useCredentials } from './credentials';
export type { Credentials } from './credentials';
export { LoginScreen } from './login-screen';
export { ReconnectPrompt } from './reconnect-prompt';
export { SessionReconnect } from './sso-reconnect';
export { isUnauthorized, sessionQuery, useIsAdmin } from './session';
export { useEndSession } from './use-end-session';
export { useSignOut } from './use-sign-out';
