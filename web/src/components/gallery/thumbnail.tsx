/**
 * A gallery thumbnail. Loaded lazily and decoded off the main thread, so only the images near the
 * viewport cost anything (checklist: scale); `elementtiming` lets the browser report when the
 * first thumbnails were painted (the dashboard benchmark reads it).
 */
export function Thumbnail({
  src,
  alt,
  className,
}: {
  src: string;
  alt: string;
  className?: string;
}) {
  return (
    <img
      className={className ? `thumbnail ${className}` : 'thumbnail'}
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      draggable={false}
      // React 19 passes unknown lower-case attributes through to the element.
      {...{ elementtiming: 'thumbnail' }}
    />
  );
}
