import { isValidUsername } from '@tessera/contract';
import type { UserRepository } from '../store/users.js';
import { generatePassword, hashPassword } from './passwords.js';

export class UserError extends Error {
  override name = 'UserError';
}

export const PASSWORD_MIN_LENGTH = 8;

/** Account management for the command line and the first start. */
export class UserService {
  constructor(private readonly users: UserRepository) {}

  async add(username: string, password: string): Promise<void> {
    if (!isValidUsername(username)) {
      throw new UserError(
        `'${username}' is not a valid username: use 1 to 64 letters, digits, '_', '.' or '-'`,
      );
    }
    checkPassword(password);
    if (await this.users.findByUsername(username))
      throw new UserError(`User '${username}' already exists`);
    await this.users.create(username, await hashPassword(password));
  }

  /** Ends the user's sessions, and every server closes their MQTT connections (store/users.ts). */
  async setPassword(username: string, password: string): Promise<void> {
    checkPassword(password);
    if (!(await this.users.updatePasswordHash(username, await hashPassword(password)))) {
      throw new UserError(`No user '${username}'`);
    }
  }

  /** Ends the user's sessions (the database cascades) and, on every server, MQTT connections. */
  async remove(username: string): Promise<void> {
    if (!(await this.users.remove(username))) throw new UserError(`No user '${username}'`);
  }

  async list(): Promise<{ username: string; createdAt: string }[]> {
    return (await this.users.list()).map(({ username, createdAt }) => ({ username, createdAt }));
  }

  /** On a first start (no users at all) creates `admin` with a random password and returns it. */
  async ensureAdministrator(): Promise<{ username: string; password: string } | undefined> {
    if ((await this.users.count()) > 0) return undefined;
    const password = generatePassword();
    await this.users.create('admin', await hashPassword(password));
    return { username: 'admin', password };
  }
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new UserError(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > 1024) throw new UserError('The password must have at most 1024 characters');
}
