/** Where a process was told to listen, and the variables that change it. */
export interface ListenTarget {
  port: number;
  host: string;
  /** The setting naming the port, e.g. `PORT`. */
  portVariable: string;
  /** The setting naming the address, e.g. `HOST`. */
  hostVariable: string;
}

/**
 * A failed listen as an operator can act on it: which port, and which setting moves it. Other
 * errors are returned unchanged.
 */
export function explainListenError(err: unknown, to: ListenTarget): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const at = `port ${to.port} on ${to.host}`;
  switch (code) {
    case 'EADDRINUSE':
      return new Error(
        `${at} is in use by another program: set ${to.portVariable} to a free port, or stop that program`,
        { cause: err },
      );
    case 'EACCES':
      return new Error(
        `${at} is not open to this user (ports below 1024 need privileges): set ${to.portVariable} to 1024 or above`,
        { cause: err },
      );
    case 'EADDRNOTAVAIL':
      return new Error(
        `${to.host} is not an address of this machine: set ${to.hostVariable} to one of its addresses, or 0.0.0.0`,
        { cause: err },
      );
    default:
      return err;
  }
}

/** Listens, and explains a refusal by the setting that changes it. */
export async function listenExplained<T>(listen: () => Promise<T>, to: ListenTarget): Promise<T> {
  try {
    return await listen();
  } catch (err) {
    throw explainListenError(err, to);
  }
}
