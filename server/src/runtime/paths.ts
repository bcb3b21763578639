import { fileURLToPath } from 'node:url';

// Resolved from this file (src/runtime/ or dist/runtime/), so they hold from src/ (tests, dev) and
// dist/ (start) alike.
export const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const THEMES_DIR = fileURLToPath(new URL('../../themes', import.meta.url));
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));
