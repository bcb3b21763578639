/** The URL of a file of the theme `theme`, served by the server under /themes/<theme>/. */
export function themeAsset(theme: string, file: 'style.css' | 'icon.svg' | 'logo.svg'): string {
  return `/themes/${encodeURIComponent(theme)}/${file}`;
}

function headLink(id: string, rel: string): HTMLLinkElement {
  const found = document.getElementById(id);
  if (found instanceof HTMLLinkElement) return found;
  const link = document.createElement('link');
  link.id = id;
  link.rel = rel;
  return link;
}

/**
 * Applies a theme to the document: its stylesheet and its favicon. The app's own CSS sits in the
 * cascade layer `app`, so the theme's unlayered rules win wherever its link lands in <head>.
 * Calling it again changes nothing.
 */
export function applyTheme(theme: string): void {
  const stylesheet = headLink('tessera-theme', 'stylesheet');
  const href = themeAsset(theme, 'style.css');
  if (stylesheet.getAttribute('href') !== href) stylesheet.setAttribute('href', href);
  if (!stylesheet.isConnected) document.head.append(stylesheet);

  // index.html carries an empty icon so the browser asks for no /favicon.ico meanwhile.
  for (const old of document.head.querySelectorAll('link[rel="icon"]:not(#tessera-icon)')) {
    old.remove();
  }
  const icon = headLink('tessera-icon', 'icon');
  icon.type = 'image/svg+xml';
  const iconHref = themeAsset(theme, 'icon.svg');
  if (icon.getAttribute('href') !== iconHref) icon.setAttribute('href', iconHref);
  if (!icon.isConnected) document.head.append(icon);
}
