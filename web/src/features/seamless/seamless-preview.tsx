import { TEXT_BUNDLES } from '@tessera/contract';
import { useState } from 'react';
import type { CSSProperties, ImgHTMLAttributes, SyntheticEvent } from 'react';
import { useTexts } from '../../lib/i18n';
import './seamless.css';

/**
 * Beyond the spec: seamless textures are judged by eye, so any image can be shown repeated 3×3.
 * The repeat is one element with a repeating background (no gaps between copies, one decode),
 * sized to the image's own aspect ratio so exactly three copies fit across and down.
 */

export function SeamlessToggle({
  pressed,
  onToggle,
  className,
}: {
  pressed: boolean;
  onToggle: (pressed: boolean) => void;
  className?: string;
}) {
  const T = useTexts(TEXT_BUNDLES.seamless);
  return (
    <button
      type="button"
      className={`seamless-toggle${className ? ` ${className}` : ''}`}
      aria-pressed={pressed}
      onClick={() => onToggle(!pressed)}
    >
      <TileIcon />
      <span>{T.tiledPreview}</span>
    </button>
  );
}

/** `src` repeated 3×3. `aspectRatio` is the image's width / height (1 until it is known). */
export function TiledImage({
  src,
  alt,
  aspectRatio = 1,
  onClick,
}: {
  src: string;
  alt: string;
  aspectRatio?: number;
  onClick?: () => void;
}) {
  const T = useTexts(TEXT_BUNDLES.seamless);
  return (
    <div
      role="img"
      aria-label={T.tiledImage(alt)}
      className={`seamless-tiles${onClick ? ' is-clickable' : ''}`}
      data-tiles="3x3"
      style={
        {
          backgroundImage: `url("${src}")`,
          aspectRatio: String(aspectRatio),
          '--tile-ratio': String(aspectRatio),
        } as CSSProperties
      }
      onClick={onClick}
    />
  );
}

export interface SeamlessPreviewProps {
  src: string;
  alt: string;
  /** Starts tiled (default: the image once). */
  defaultTiled?: boolean;
  /** Clicking the image (single or tiled), e.g. to open its details. */
  onImageClick?: () => void;
  /** Passed to the single <img>, e.g. onLoad to read its natural size. */
  imgProps?: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'>;
  className?: string;
}

/** An image with the 3×3 toggle under it; a drop-in for an <img> in any preview. */
export function SeamlessPreview({
  src,
  alt,
  defaultTiled = false,
  onImageClick,
  imgProps,
  className,
}: SeamlessPreviewProps) {
  const [tiled, setTiled] = useState(defaultTiled);
  const [aspectRatio, setAspectRatio] = useState<number | undefined>(undefined);

  function onLoad(event: SyntheticEvent<HTMLImageElement>) {
    const { naturalWidth, naturalHeight } = event.currentTarget;
    if (naturalWidth > 0 && naturalHeight > 0) setAspectRatio(naturalWidth / naturalHeight);
    imgProps?.onLoad?.(event);
  }

  return (
    <figure className={`seamless-preview${className ? ` ${className}` : ''}`}>
      <div className="seamless-view">
        {/* The single image stays mounted (hidden while tiled) so its size is known either way. */}
        <img
          {...imgProps}
          src={src}
          alt={alt}
          hidden={tiled}
          onLoad={onLoad}
          onClick={onImageClick}
          className={`seamless-image${onImageClick ? ' is-clickable' : ''}${imgProps?.className ? ` ${imgProps.className}` : ''}`}
        />
        {tiled && (
          <TiledImage src={src} alt={alt} aspectRatio={aspectRatio} onClick={onImageClick} />
        )}
      </div>
      <figcaption className="seamless-caption">
        <SeamlessToggle pressed={tiled} onToggle={setTiled} />
      </figcaption>
    </figure>
  );
}

function TileIcon() {
  return (
    <svg
      className="icon seamless-icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="3.5" y="3.5" width="17" height="17" rx="1.5" />
      <path d="M9.17 3.5v17M14.83 3.5v17M3.5 9.17h17M3.5 14.83h17" />
    </svg>
  );
}
