import { isValidUsername } from '@tessera/contract';
import { noUserProvisioning, type UserProvisioning } from '../broker/user-provisioning.js';
import type { Owner } from '../owner.js';
import type { UserRepository } from '../store/users.js';
import { generatePassword, hashPassword } from './passwords.js';

export class UserError extends Error {
  override name = 'UserError';
}

/** The account changed in Tessera, but the broker could not be told (see `cause`). */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}

export const PASSWORD_MIN_LENGTH = 8;

/** Account management for the command line and the first start. */
export class UserService {
  constructor(
    private readonly users: UserRepository,
    /** An external broker's logins, kept in step after each change (embedded: nothing to do). */
    private readonly provisioning: UserProvisioning = noUserProvisioning,
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
    await this.tellBroker(() => this.provisioning.passwordSet(username, password, hash));
  }

  /** Ends the user's sessions (the database cascades) and, on every server, MQTT connections. */
  async remove(username: string): Promise<void> {
    if (!(await this.users.remove(username))) throw new UserError(`No user '${username}'`);
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

  /** On a first start (no users at all) creates `admin` with a random password and returns it. */
  async ensureAdministrator(): Promise<{ username: string; password: string } | undefined> {
    if ((await this.users.count()) > 0) return undefined;
    const password = generatePassword();
    const hash = await hashPassword(password);
    await this.users.create('admin', hash);
    await this.tellBroker(() => this.provisioning.passwordSet('admin', password, hash));
    return { username: 'admin', password };
  }
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new UserError(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > 1024) throw new UserError('The password must have at most 1024 characters');
}
