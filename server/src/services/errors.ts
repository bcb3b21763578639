/** A refusal the user can read: the messaging service sends its message as the response's `error`. */
export class ServiceError extends Error {
  override name = 'ServiceError';
}

export const SERVICE_TEXTS = {
  imageNotFound: (filename: string) => `Image '${filename}' not found`,
  tagNotFound: (id: string) => `Tag '${id}' not found`,
  tagIdTaken: (id: string) => `A tag with the id '${id}' already exists`,
} as const;
