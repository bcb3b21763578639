/** RFC 6266: an ASCII fallback and the exact name in UTF-8 (RFC 8187). */
export function dispositionFileName(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
