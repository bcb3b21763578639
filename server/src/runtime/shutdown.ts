/**
 * The abort reason of work stopped because the server is shutting down (not cancelled): an
 * engine leaves remote work running then, for the job to pick it up after the restart.
 */
export class ServerStopping extends Error {
  override name = 'ServerStopping';

  constructor() {
    super('The server is stopping');
  }
}
