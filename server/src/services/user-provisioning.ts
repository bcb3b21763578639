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
   * The MQTT username a single sign-on session's tabs connect with (issue 30, part 4): the
   * user's own name where the broker asks Tessera (embedded), a login of the session's own on
   * Mosquitto, so that each session's secret works beside the others'.
   */
  sessionLoginName(username: string, secret: string): string;
  /**
   * A single sign-on session began: the user has no password, so the broker takes the
   * session's messaging secret for its login until `expiresAt`. Never throws.
   */
  sessionSecretIssued(username: string, secret: string, expiresAt: Date): Promise<void>;
  /** That session ended (sign-out): its login stops working, and its connections close. */
  sessionSecretEnded(username: string, secret: string): Promise<void>;
  /** A user was removed or disabled: their logins go (sessions' too), and their connections. */
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
  /** Single sign-on sessions' logins whose session expired, or whose user is gone or disabled. */
  sessionsEnded: string[];
}

const nothingToDo = () => Promise.resolve();

export const noUserProvisioning: UserProvisioning = {
  passwordSet: nothingToDo,
  signedIn: nothingToDo,
  sessionLoginName: (username) => username,
  sessionSecretIssued: nothingToDo,
  sessionSecretEnded: nothingToDo,
  removed: nothingToDo,
  reconcile: () =>
    Promise.resolve({ created: [], removed: [], disabled: [], repaired: [], sessionsEnded: [] }),
  close: nothingToDo,
};
