// The texts of the Tags panel, the tag dialogs and pickers (SPEC §2 Tags panel; issue 30, part 5):
// Spanish, with English twins. The spec's tag name messages live in TEXTS; "Tags" is the spec's.
import type { Translation } from './i18n.js';

export const TAG_TEXTS = {
  /** The panel's heading, and the name of a list of tags (SPEC §2: "a Tags panel"). */
  tags: 'Tags',
  newTag: 'Nueva etiqueta',
  search: 'Buscar etiquetas',
  showAll: 'Mostrar todas las imágenes',
  none: 'Aún no hay etiquetas.',
  loadFailed: 'No se han podido cargar las etiquetas.',
  filtering: 'Filtrando por esta etiqueta: haz clic para dejar de filtrar',
  filterBy: 'Haz clic para filtrar por esta etiqueta',
  saving: (name: string) => `Guardando la etiqueta ${name}`,
  edit: 'Editar',
  editTag: (name: string) => `Editar la etiqueta ${name}`,
  delete: 'Eliminar',
  deleteTag: (name: string) => `Eliminar la etiqueta ${name}`,

  // The create and edit dialog
  create: 'Crear',
  editTitle: 'Editar etiqueta',
  save: 'Guardar',
  name: 'Nombre',
  colour: 'Color',
  cancel: 'Cancelar',
  saveFailed: 'No se ha podido guardar la etiqueta. Inténtalo de nuevo.',

  // The delete confirmation
  deleteTitle: 'Eliminar etiqueta',
  deleteQuestion: (name: string) =>
    `¿Eliminar la etiqueta “${name}”? Se quitará de todas las imágenes que la tengan.`,

  // Creating from the search text, and the picker of an image's tags
  createNamed: (name: string) => `Crear la etiqueta “${name}”`,
  createFailed: 'No se ha podido crear la etiqueta. Inténtalo de nuevo.',
  pickerEmpty: 'Aún no hay etiquetas: escribe arriba un nombre para crear una.',
  tagsOf: (filename: string) => `Etiquetas de ${filename}`,
  done: 'Hecho',
} as const;

export const TAG_TEXTS_EN: Translation<typeof TAG_TEXTS> = {
  tags: 'Tags',
  newTag: 'New tag',
  search: 'Search tags',
  showAll: 'Show all images',
  none: 'No tags yet.',
  loadFailed: 'The tags could not be loaded.',
  filtering: 'Filtering by this tag: click to stop',
  filterBy: 'Click to filter by this tag',
  saving: (name: string) => `Saving tag ${name}`,
  edit: 'Edit',
  editTag: (name: string) => `Edit tag ${name}`,
  delete: 'Delete',
  deleteTag: (name: string) => `Delete tag ${name}`,

  create: 'Create',
  editTitle: 'Edit tag',
  save: 'Save',
  name: 'Name',
  colour: 'Colour',
  cancel: 'Cancel',
  saveFailed: 'The tag could not be saved. Please try again.',

  deleteTitle: 'Delete tag',
  deleteQuestion: (name: string) =>
    `Delete the tag “${name}”? It is removed from every image that has it.`,

  createNamed: (name: string) => `Create tag “${name}”`,
  createFailed: 'The tag could not be created. Please try again.',
  pickerEmpty: 'No tags yet: type a name above to create one.',
  tagsOf: (filename: string) => `Tags of ${filename}`,
  done: 'Done',
};
