// The texts of the login screen, the sidebar and the language switch (issue 30, part 5). The
// spec's own ("User", "Password", "Sign in") are verbatim in the default language.
import type { Translation } from './i18n.js';

export const SHELL_TEXTS = {
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
  /** Names the group of language buttons (beyond the spec: new, so in Spanish). */
  language: 'Idioma',
  /** A refusal without the server's own text. */
  serverStatus: (status: number) => `The server answered with status ${status}.`,
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
  serverStatus: (status: number) => `The server answered with status ${status}.`,
};
