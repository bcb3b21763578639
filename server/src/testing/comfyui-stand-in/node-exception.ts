/** An exception a node raises, with its Python type as execution.py names it (full_type_name). */
export class NodeException extends Error {
  constructor(
    message: string,
    readonly pythonType = 'Exception',
  ) {
    super(message);
  }
}
