// The texts of the galleries' frame (the tools column, counts, image actions, deletion's undo)
// and of the Dashboard (SPEC §2; issue 30, part 5). The spec's labels (Gallery, List, Refresh,
// Delete, Delete Selection, the table's columns) are verbatim in the default language and the
// same in English; ours are Spanish with English twins. Counts are grouped as each locale does.
import type { Translation } from './i18n.js';
import { formatCount } from './number-format.js';
import type { LdSort } from './search.js';

const es = (n: number) => formatCount(n, 'es');
const en = (n: number) => formatCount(n, 'en');

export const GALLERY_TEXTS = {
  /** Names a gallery's tools column, after its heading: "Herramientas de Dashboard". */
  tools: (title: string) => `Herramientas de ${title}`,
  view: 'Vista',
  gallery: 'Gallery',
  list: 'List',
  refresh: 'Refresh',
  loadingImages: 'Cargando imágenes',
  countLabel: 'Número de imágenes',
  loadingCount: (total: number) => `Cargando imágenes… ${es(total)}`,
  count: (total: number) => `${es(total)} ${total === 1 ? 'imagen' : 'imágenes'}`,
  countOf: (shown: number, total: number) => `${es(shown)} de ${es(total)} imágenes`,

  // Selection
  selectedCount: (count: number) =>
    `${es(count)} ${count === 1 ? 'seleccionada' : 'seleccionadas'}`,
  clearSelection: 'Quitar la selección',
  select: (filename: string) => `Seleccionar ${filename}`,
  selectAll: 'Seleccionar todas las imágenes',

  // An image's actions; Delete and Download are the spec's
  star: (filename: string) => `Favorita: ${filename}`,
  starTitle: 'Marcar como favorita',
  unstarTitle: 'Quitar de favoritas',
  assignTags: (filename: string) => `Asignar etiquetas a ${filename}`,
  assignTagsTitle: 'Asignar etiquetas',
  download: 'Download',
  downloadFile: (filename: string) => `Download ${filename}`,
  delete: 'Delete',
  deleteFile: (filename: string) => `Delete ${filename}`,
  selectSeriesOf: (filename: string) => `Seleccionar la serie de ${filename}`,
  series: (id: string) => `Serie ${id}`,

  // The undo of a deletion
  deletion: 'Eliminación',
  deleted: (count: number) =>
    `${es(count)} ${count === 1 ? 'imagen eliminada' : 'imágenes eliminadas'}`,
  undo: 'Deshacer',
  deleteNow: 'Eliminar ya',
} as const;

export const GALLERY_TEXTS_EN: Translation<typeof GALLERY_TEXTS> = {
  tools: (title: string) => `${title} tools`,
  view: 'View',
  gallery: 'Gallery',
  list: 'List',
  refresh: 'Refresh',
  loadingImages: 'Loading images',
  countLabel: 'Image count',
  loadingCount: (total: number) => `Loading images… ${en(total)}`,
  count: (total: number) => `${en(total)} ${total === 1 ? 'image' : 'images'}`,
  countOf: (shown: number, total: number) => `${en(shown)} of ${en(total)} images`,

  selectedCount: (count: number) => `${en(count)} selected`,
  clearSelection: 'Clear selection',
  select: (filename: string) => `Select ${filename}`,
  selectAll: 'Select all images',

  star: (filename: string) => `Star ${filename}`,
  starTitle: 'Star',
  unstarTitle: 'Unstar',
  assignTags: (filename: string) => `Assign tags to ${filename}`,
  assignTagsTitle: 'Assign tags',
  download: 'Download',
  downloadFile: (filename: string) => `Download ${filename}`,
  delete: 'Delete',
  deleteFile: (filename: string) => `Delete ${filename}`,
  selectSeriesOf: (filename: string) => `Select series of ${filename}`,
  series: (id: string) => `Series ${id}`,

  deletion: 'Deletion',
  deleted: (count: number) => `${en(count)} ${count === 1 ? 'image' : 'images'} deleted`,
  undo: 'Undo',
  deleteNow: 'Delete now',
};

export const DASHBOARD_TEXTS = {
  /** SPEC §2 "Dashboard (low-definition gallery)". */
  title: 'Dashboard',
  images: 'Imágenes',
  deleteSelection: 'Delete Selection',
  caption: 'Imágenes de baja definición',
  /** SPEC §2's table columns. */
  columns: { preview: 'Preview', name: 'Name', tags: 'Tags', size: 'Size', date: 'Date' },
  actions: 'Acciones',

  // The search (issue 13, features 8 and 9)
  find: 'Buscar imágenes',
  searchPrompts: 'Buscar en los prompts',
  seed: 'Semilla',
  from: 'Desde',
  to: 'Hasta',
  sort: 'Orden',
  sorts: { newest: 'Más recientes', oldest: 'Más antiguas', name: 'Nombre' } satisfies Record<
    LdSort,
    string
  >,
  starred: 'Favoritas',
  clearSearch: 'Borrar la búsqueda',
} as const;

export const DASHBOARD_TEXTS_EN: Translation<typeof DASHBOARD_TEXTS> = {
  title: 'Dashboard',
  images: 'Images',
  deleteSelection: 'Delete Selection',
  caption: 'Low-definition images',
  columns: { preview: 'Preview', name: 'Name', tags: 'Tags', size: 'Size', date: 'Date' },
  actions: 'Actions',

  find: 'Find images',
  searchPrompts: 'Search prompts',
  seed: 'Seed',
  from: 'From',
  to: 'To',
  sort: 'Sort',
  sorts: { newest: 'Newest', oldest: 'Oldest', name: 'Name' },
  starred: 'Starred',
  clearSearch: 'Clear search',
};
