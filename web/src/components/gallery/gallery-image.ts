import type { LdImage } from '@tessera/contract';
import { imageAspect } from './aspect';

/** What every gallery image has, low-definition or HD. */
export type GalleryImage = Pick<LdImage, 'filename' | 'thumbnail' | 'metadata'>;

/** An image's key in the grids and tables: its file name. */
export const imageKey = (image: GalleryImage) => image.filename;

/** An image's height over width, for its masonry tile. */
export const imageTileAspect = (image: GalleryImage) => imageAspect(image.metadata);

/** A tile's or a row's class: selected and busy (being deleted) show in the styles. */
export function itemClasses(base: string, selected: boolean, busy: boolean): string {
  return [base, selected && 'is-selected', busy && 'is-busy'].filter(Boolean).join(' ');
}
