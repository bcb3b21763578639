/**
 * The Content-Security-Policy of every answer. Scripts come from this server only (Vite builds
 * them into files, nothing inline); images from this server, or blob:/data: for the previews
 * the browser makes of a chosen file; connections go to this server and to the MQTT broker.
 * Styles may be inline (components set sizes and tag colours), but what CSS could fetch
 * (url(...) in a colour) is held to img-src and font-src.
 */
export function contentSecurityPolicy(brokerUrl: string): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", originOf(brokerUrl)],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** 'wss://tiles.example:8443/mqtt' → 'wss://tiles.example:8443', the form CSP sources take. */
function originOf(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}
