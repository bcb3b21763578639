// The 3×3 repeat preview (beyond the spec), for any screen that shows an image.
export { SeamlessPreview, SeamlessToggle, TiledImage } from './seamless-preview';
export type { SeamlessPreviewProps } from './seamless-preview';
