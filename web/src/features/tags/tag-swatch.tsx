/** A tag's colour dot; decorative, the tag's name says which tag it is. */
export function TagSwatch({ color }: { color: string }) {
  return <span className="tag-swatch" style={{ background: color }} aria-hidden="true" />;
}
