import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';

export const THEME_FILES = ['style.css', 'icon.svg', 'logo.svg'] as const;

/** The installed themes: folders holding every file a theme must supply. */
export function listThemes(themesDir: string): string[] {
  if (!fs.existsSync(themesDir)) return [];
  return fs
    .readdirSync(themesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => THEME_FILES.every((file) => fs.existsSync(path.join(themesDir, name, file))))
    .sort();
}

export function checkTheme(themesDir: string, theme: string): void {
  const themes = listThemes(themesDir);
  if (!themes.includes(theme)) {
    throw new ConfigError(
      `Invalid configuration:\n  THEME must be one of ${themes.join(', ')} (got '${theme}')`,
    );
  }
}
