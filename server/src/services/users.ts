import { isValidUsername } from '@tessera/contract';
import { noUserProvisioning, type UserProvisioning } from './user-provisioning.js';
import type { Owner } from '../owner.js';
import type { UserRepository } from '../store/users.js';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';

export class UserError extends Error {
  override name = 'UserError';
}

/** The account changed in Tessera, but the broker could not be told (see `cause`). */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}

export const PASSWORD_MIN_LENGTH = 8;

/** The administrator a first start creates. */
export const FIRST_ADMIN = 'admin';

/**
 * Where a generated first password is kept until it is changed (files/initial-password-file.ts):
 * an operator may miss the one log line that shows it.
 */
export interface InitialPasswordNote {
  /** Where it is, for the operator. */
  readonly location: string;
  save(password: string): Promise<void>;
  read(): Promise<string | undefined>;
  remove(): Promise<void>;
}

export const noInitialPasswordNote: InitialPasswordNote = {
  location: '',
  save: () => Promise.resolve(),
  read: () => Promise.resolve(undefined),
  remove: () => Promise.resolve(),
};

/** What a first start made: the administrator and its password, given or generated and saved. */
export interface CreatedAdministrator {
  username: string;
  password: string;
  /** A generated password: where it is kept until changed. Unset: ADMIN_PASSWORD gave it. */
  savedTo?: string;
}

/** Account management for the command line and the first start. */
export class UserService {
  constructor(
    private readonly users: UserRepository,
    /** An external broker's logins, kept in step after each change (embedded: nothing to do). */
    private readonly provisioning: UserProvisioning = noUserProvisioning,
    private readonly initialPassword: InitialPasswordNote = noInitialPasswordNote,
  ) {}

  async add(username: string, password: string): Promise<void> {
    if (!isValidUsername(username)) {
      throw new UserError(
        `'${username}' is not a valid username: use 1 to 64 letters, digits, '_', '.' or '-'`,
      );
    }
    checkPassword(password);
    if (await this.users.findByUsername(username))
      throw new UserError(`User '${username}' already exists`);
    const hash = await hashPassword(password);
    await this.users.create(username, hash);
    await this.tellBroker(() => this.provisioning.passwordSet(username, password, hash));
  }

  /** Ends the user's sessions, and every server closes their MQTT connections (store/users.ts). */
  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    const hash = await hashPassword(password);
    if (!(await this.users.updatePasswordHash(username, hash))) {
      throw new UserError(`No user '${username}'`);
    }
    // The first password is no longer the password: nothing to keep a copy of.
    if (username === FIRST_ADMIN) await this.initialPassword.remove();
    await this.tellBroker(() => this.provisioning.passwordSet(username, password, hash));
  }

  /** Ends the user's sessions (the database cascades) and, on every server, MQTT connections. */
  async remove(username: string): Promise<void> {
    if (!(await this.users.remove(username))) throw new UserError(`No user '${username}'`);
    if (username === FIRST_ADMIN) await this.initialPassword.remove();
    await this.tellBroker(() => this.provisioning.removed(username));
  }

  /** Makes the broker's logins match Tessera's users (at start, on an external broker). */
  async reconcileBroker() {
    const users = (await this.users.list()).map(({ username, passwordHash }) => ({
      username,
      passwordHash,
    }));
    return this.provisioning.reconcile(users);
  }

  private async tellBroker(change: () => Promise<void>): Promise<void> {
    try {
      await change();
    } catch (err) {
      throw new ProvisioningError(
        `Saved in Tessera, but the broker was not updated: ${err instanceof Error ? err.message : String(err)}. ` +
          'The next server start brings it in line (a changed password leaves the old broker ' +
          'login off until the user signs in again).',
        { cause: err },
      );
    }
  }

  /** The user of this name as the owner of work, when there is one (a removed user is not). */
  async owner(username: string): Promise<Owner | undefined> {
    const user = await this.users.findByUsername(username);
    return user && { id: user.id, username: user.username };
  }

  async list(): Promise<{ username: string; createdAt: string }[]> {
    return (await this.users.list()).map(({ username, createdAt }) => ({ username, createdAt }));
  }

  /**
   * On a first start (no users at all) creates `admin` with `given` (ADMIN_PASSWORD), or with a
   * random password saved first (a start that fails after this still leaves it readable).
   */
  async ensureAdministrator(given?: string): Promise<CreatedAdministrator | undefined> {
    if ((await this.users.count()) > 0) return undefined;
    if (given !== undefined) checkPassword(given);
    const password = given ?? generatePassword();
    if (given === undefined) await this.initialPassword.save(password);
    const hash = await hashPassword(password);
    await this.users.create(FIRST_ADMIN, hash);
    await this.tellBroker(() => this.provisioning.passwordSet(FIRST_ADMIN, password, hash));
    return {
      username: FIRST_ADMIN,
      password,
      ...(given === undefined && { savedTo: this.initialPassword.location }),
    };
  }

  /**
   * Where the first password still is, when it is still admin's password; a saved password that
   * no longer is (changed another way, or the user removed) is deleted.
   */
  async initialPasswordKept(): Promise<string | undefined> {
    const saved = await this.initialPassword.read();
    if (saved === undefined) return undefined;
    const admin = await this.users.findByUsername(FIRST_ADMIN);
    if (admin && (await verifyPassword(saved, admin.passwordHash))) {
      return this.initialPassword.location;
    }
    await this.initialPassword.remove();
    return undefined;
  }
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new UserError(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > 1024) throw new UserError('The password must have at most 1024 characters');
}
