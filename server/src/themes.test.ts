import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { THEMES_DIR } from './runtime/paths.js';
import { checkTheme, listThemes } from './themes.js';

describe('themes', () => {
  it('ships at least two complete themes, default among them', () => {
    const themes = listThemes(THEMES_DIR);
    expect(themes).toContain('default');
    expect(themes.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown theme at start, listing the ones there are', () => {
    expect(() => checkTheme(THEMES_DIR, 'neon')).toThrow(ConfigError);
    expect(() => checkTheme(THEMES_DIR, 'neon')).toThrow(
      /THEME must be one of .*default.*\(got 'neon'\)/,
    );
  });
});
