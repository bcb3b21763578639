import {
  CLI_ACTOR,
  FIRST_START_ACTOR,
  isValidUsername,
  type AdminPasswordResponse,
  type AdminRemoveResponse,
  type AdminTakeOverResponse,
  type AdminUser,
  type UserRole,
} from '@tessera/contract';
import { OwnerCache } from './owner-cache.js';
import { ProvisioningError, UserError } from './user-errors.js';
import { noUserProvisioning, type UserProvisioning } from './user-provisioning.js';
import type { Owner } from '../owner.js';
import type {
  AccountChange,
  AccountChangeResult,
  UserRecord,
  UserRepository,
} from '../store/users.js';
import { NO_USAGE, type UserUsageReader } from '../store/user-usage.js';
import { faultPoint } from '../runtime/faults.js';
import { noAuditTrail, type Actor, type AuditTrail } from './audit.js';
import { generatePassword, hashPassword, UNUSABLE_HASH, verifyPassword } from './passwords.js';
import {
  FIRST_ADMIN,
  noInitialPasswordNote,
  noImagesTakeOver,
  noOwnerFiles,
  type CreatedAdministrator,
  type ImagesTakeOver,
  type InitialPasswordNote,
  type OwnerFiles,
} from './user-ports.js';

export * from './user-ports.js';
export * from './user-errors.js';

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 1024;
const CLI: Actor = { name: CLI_ACTOR };

/**
 * Account management: the one service behind `npm run users`, the admin API (issue 29) and the
 * first start. Every change is told to the broker and recorded in the audit trail.
 */
export class UserService {
  /** Every MQTT command names its owner: kept, and forgotten by each change below. */
  private readonly owners = new OwnerCache(async (username) => {
    const user = await this.users.findByUsername(username);
    return user && user.disabledAt === null ? { id: user.id, username: user.username } : undefined;
  });

  constructor(
    private readonly users: UserRepository,
    /** An external broker's logins, kept in step after each change (embedded: nothing to do). */
    private readonly provisioning: UserProvisioning = noUserProvisioning,
    private readonly initialPassword: InitialPasswordNote = noInitialPasswordNote,
    private readonly audit: AuditTrail = noAuditTrail,
    private readonly files: OwnerFiles = noOwnerFiles,
    private readonly usage?: UserUsageReader,
    private readonly takeOvers: ImagesTakeOver = noImagesTakeOver,
  ) {}

  /** A new user; the very first one is an administrator whatever `role` says. */
  async add(username: string, password: string, role: UserRole = 'member', by = CLI) {
    if (!isValidUsername(username)) throw UserError.of('USERNAME_INVALID', username);
    checkPassword(password);
    if (await this.users.findByUsername(username)) throw UserError.of('USER_EXISTS', username);
    const hash = await hashPassword(password);
    const first = (await this.users.count()) === 0;
    const user = await this.users.create(username, hash, first ? 'admin' : role);
    await this.audit.note({
      actor: by,
      action: 'user-created',
      target: username,
      details: { role: user.role },
    });
    await this.tellBroker(() => this.provisioning.passwordSet(username, password, hash));
  }

  /** `add` with the password typed, or generated and answered once. */
  async create(username: string, password: string | undefined, role: UserRole, by: Actor) {
    const chosen = password ?? generatePassword();
    await this.add(username, chosen, role, by);
    return passwordAnswer(username, password, chosen);
  }

  /** Ends the user's sessions, and every server closes their MQTT connections (store/users.ts). */
  async setPassword(username: string, password: string, by = CLI): Promise<void> {
    checkPassword(password);
    const hash = await hashPassword(password);
    if (!(await this.users.updatePasswordHash(username, hash))) throw await this.missing(username);
    // The first password is no longer the password: nothing to keep a copy of.
    if (username === FIRST_ADMIN) await this.initialPassword.remove();
    await this.audit.note({ actor: by, action: 'password-reset', target: username });
    await this.tellBroker(() => this.provisioning.passwordSet(username, password, hash));
  }

  /** `setPassword` with the password typed, or generated and answered once. */
  async resetPassword(username: string, password: string | undefined, by: Actor) {
    const chosen = password ?? generatePassword();
    await this.setPassword(username, chosen, by);
    return passwordAnswer(username, password, chosen);
  }

  async setRole(username: string, role: UserRole, by = CLI): Promise<void> {
    const before = await this.users.findByUsername(username);
    await this.change(username, { role });
    await this.audit.note({
      actor: by,
      action: 'role-changed',
      target: username,
      details: { from: before?.role, to: role },
    });
  }

  /** No sign-in, no broker connection (theirs end now on every server); the data stays. */
  async disable(username: string, by = CLI): Promise<void> {
    await this.change(username, { disabledAt: new Date().toISOString() });
    await this.audit.note({ actor: by, action: 'user-disabled', target: username });
    // An external broker drops the login; it gets the password again at the next sign-in.
    await this.tellBroker(() => this.provisioning.removed(username));
  }

  async enable(username: string, by = CLI): Promise<void> {
    const user = await this.users.findByUsername(username);
    if (user?.retiredAt) throw UserError.of('USER_RETIRED', username);
    await this.change(username, { disabledAt: null });
    await this.audit.note({ actor: by, action: 'user-enabled', target: username });
  }

  /**
   * Ends the user's sessions (the database cascades) and, on every server, MQTT connections.
   * `delete` removes the account, its rows and its files; `keep` retires it: no sign-in ever
   * again, the name and every image kept in place for an administrator.
   */
  async remove(
    username: string,
    by = CLI,
    images: 'keep' | 'delete' = 'delete',
  ): Promise<AdminRemoveResponse> {
    const user = await this.users.findByUsername(username);
    if (!user) throw UserError.of('USER_UNKNOWN', username);
    const usage = (await this.usage?.of(user.id)) ?? NO_USAGE;
    let filesRemoved = 0;
    if (images === 'keep') {
      await this.change(username, {
        retiredAt: new Date().toISOString(),
        passwordHash: UNUSABLE_HASH,
      });
    } else {
      this.refusal(await this.removeAccount(username), username);
      filesRemoved = await this.files.removeAll(username);
    }
    if (username === FIRST_ADMIN) await this.initialPassword.remove();
    const counts = { ldImages: usage.ldImages, hdImages: usage.hdImages, filesRemoved };
    await this.audit.note({
      actor: by,
      action: 'user-removed',
      target: username,
      details: { images, ...counts },
    });
    await this.tellBroker(() => this.provisioning.removed(username));
    return { username, images, ...counts };
  }

  /**
   * The retired user's images become the admin `to`'s (renamed where `to` has the name) and the
   * emptied account is removed. Run again after a crash, it finishes: an account already gone
   * has only its old files left, which go now.
   */
  async takeOver(username: string, to: string, by = CLI): Promise<AdminTakeOverResponse> {
    const admin = await this.users.findByUsername(to);
    if (admin?.role !== 'admin' || admin.disabledAt !== null)
      throw UserError.of('TAKE_OVER_NOT_ADMIN', to);
    const user = await this.users.findByUsername(username);
    const none = { ldImages: 0, hdImages: 0, renamed: 0, files: 0 };
    if (!user) {
      if ((await this.takeOvers.leftovers(username)) === 0)
        throw UserError.of('USER_UNKNOWN', username);
      return { username, to, ...none };
    }
    if (!user.retiredAt) throw UserError.of('USER_NOT_RETIRED', username);
    const counts = await this.takeOvers.run(user, admin);
    await this.audit.note({
      actor: by,
      action: 'images-taken-over',
      target: username,
      details: { to, ...counts },
    });
    faultPoint('take-over:reowned');
    await this.takeOvers.leftovers(username);
    return { username, to, ...counts };
  }

  /** Makes the broker's logins match Tessera's users (at start, on an external broker). */
  async reconcileBroker() {
    const users = (await this.users.list())
      .filter((user) => user.disabledAt === null)
      .map(({ username, passwordHash }) => ({ username, passwordHash }));
    return this.provisioning.reconcile(users);
  }

  /** The user of this name as the owner of work, when there is one (a removed or disabled user is not). */
  owner(username: string): Promise<Owner | undefined> {
    return this.owners.owner(username);
  }

  /** Another process changed this account (credential_changes): look the owner up again. */
  forgetOwner(username: string): void {
    this.owners.forget(username);
  }

  async list(): Promise<{ username: string; createdAt: string; role: UserRole }[]> {
    return (await this.users.list()).map(({ username, createdAt, role }) => ({
      username,
      createdAt,
      role,
    }));
  }

  /** Every user with what they have and use, for the admin's users list. */
  async overview(): Promise<AdminUser[]> {
    const usage = (await this.usage?.all()) ?? new Map();
    return (await this.users.list()).map((user) => adminView(user, usage.get(user.id)));
  }

  /** One user as the admin's list shows them. */
  async view(username: string): Promise<AdminUser> {
    const user = await this.users.findByUsername(username);
    if (!user) throw UserError.of('USER_UNKNOWN', username);
    return adminView(user, await this.usage?.of(user.id));
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
    await this.users.create(FIRST_ADMIN, hash, 'admin');
    await this.audit.note({
      actor: { name: FIRST_START_ACTOR },
      action: 'user-created',
      target: FIRST_ADMIN,
      details: { role: 'admin', password: given === undefined ? 'generated' : 'ADMIN_PASSWORD' },
    });
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

  private async change(username: string, change: AccountChange): Promise<void> {
    try {
      this.refusal(await this.users.change(username, change), username);
    } finally {
      this.owners.forget(username);
    }
  }

  private async removeAccount(username: string): Promise<AccountChangeResult> {
    try {
      return await this.users.remove(username);
    } finally {
      this.owners.forget(username);
    }
  }

  private refusal(result: 'done' | 'unknown' | 'last-admin', username: string): void {
    if (result === 'unknown') throw UserError.of('USER_UNKNOWN', username);
    if (result === 'last-admin') throw UserError.of('LAST_ADMIN', username);
  }

  private async missing(username: string): Promise<UserError> {
    const user = await this.users.findByUsername(username);
    return user?.retiredAt
      ? UserError.of('USER_RETIRED', username)
      : UserError.of('USER_UNKNOWN', username);
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
}

function passwordAnswer(username: string, typed: string | undefined, chosen: string) {
  const answer: AdminPasswordResponse = {
    username,
    ...(typed === undefined && { generatedPassword: chosen }),
  };
  return answer;
}

function adminView(user: UserRecord, usage = NO_USAGE): AdminUser {
  return {
    username: user.username,
    role: user.role,
    createdAt: user.createdAt,
    lastSeenAt: user.lastSeenAt,
    disabledAt: user.disabledAt,
    retiredAt: user.retiredAt,
    ...usage,
  };
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw UserError.of('PASSWORD_TOO_SHORT', PASSWORD_MIN_LENGTH);
  if (password.length > PASSWORD_MAX_LENGTH)
    throw UserError.of('PASSWORD_TOO_LONG', PASSWORD_MAX_LENGTH);
}
