/** A DataView over exactly the bytes of `bytes` (a Buffer may be a window on a larger pool). */
export function byteView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
