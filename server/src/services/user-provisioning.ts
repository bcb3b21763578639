/**
 * Keeps an external broker's logins in step with Tessera's users. On the embedded broker there
 * is nothing to keep (it asks Tessera at every CONNECT): {@link noUserProvisioning}. The port
 * belongs to the services that call it; the Mosquitto implementation is broker/user-provisioning.ts.
 */
export interface UserProvisioning {
  /** A user was added or given a new password: the broker takes the same password. */
  passwordSet(username: string, password: string, passwordHash: string): Promise<void>;
  /**
   * A user signed in with their password: the broker gets it if it does not have it yet (after
   * a reconciliation, or a change made while the broker could not be reached). Never throws.
   */
  signedIn(username: string, password: string, passwordHash: string): Promise<void>;
  /**
   * A single sign-on session began (issue 30, part 4): the user has no password, so the broker
   * takes the session's messaging secret as the login's password until `expiresAt`. Never throws.
   */
  sessionSecretIssued(username: string, secret: string, expiresAt: Date): Promise<void>;
  /** That session ended (sign-out): its secret stops working, unless a newer one replaced it. */
  sessionSecretEnded(username: string, secret: string): Promise<void>;
  /** A user was removed: their login goes, and with it their live connections. */
  removed(username: string): Promise<void>;
  /** The whole list, at start: adds, repairs and removes until the broker matches it. */
  reconcile(users: readonly { username: string; passwordHash: string }[]): Promise<Reconciled>;
  close(): Promise<void>;
}

export interface Reconciled {
  /** Logins made for users the broker lacked; they get their password at their next sign-in. */
  created: string[];
  /** Logins of users Tessera no longer has. */
  removed: string[];
  /** Logins whose password is older than Tessera's: off until the user's next sign-in. */
  disabled: string[];
  /** Users whose role was missing or had other rules. */
  repaired: string[];
}

const nothingToDo = () => Promise.resolve();

export const noUserProvisioning: UserProvisioning = {
  passwordSet: nothingToDo,
  signedIn: nothingToDo,
  sessionSecretIssued: nothingToDo,
  sessionSecretEnded: nothingToDo,
  removed: nothingToDo,
  reconcile: () => Promise.resolve({ created: [], removed: [], disabled: [], repaired: [] }),
  close: nothingToDo,
};
