import { errorText } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { parseUsersCommand } from './users.js';

describe('npm run users: the arguments', () => {
  it('reads the role commands of issue 29', () => {
    expect(parseUsersCommand(['add', 'ann'])).toEqual({
      command: 'add',
      name: 'ann',
      changesUser: true,
    });
    expect(parseUsersCommand(['add', 'ann', 'admin'])).toMatchObject({
      command: 'add',
      role: 'admin',
    });
    expect(parseUsersCommand(['role', 'ann', 'member'])).toMatchObject({
      command: 'role',
      role: 'member',
    });
    expect(parseUsersCommand(['disable', 'ann'])).toMatchObject({
      command: 'disable',
      changesUser: true,
    });
    expect(parseUsersCommand(['enable', 'ann'])).toMatchObject({
      command: 'enable',
      changesUser: true,
    });
    expect(parseUsersCommand(['list'])).toMatchObject({ command: 'list', changesUser: false });
    expect(parseUsersCommand(['take-over', 'dora', 'boss'])).toEqual({
      command: 'take-over',
      name: 'dora',
      to: 'boss',
      changesUser: false,
    });
  });

  it('needs the admin who takes the images over', () => {
    expect(() => parseUsersCommand(['take-over', 'dora'])).toThrow(/^Usage: npm run users/);
    expect(() => parseUsersCommand(['take-over', 'dora', 'boss', 'x'])).toThrow(/^Usage/);
  });

  it('refuses a missing or unknown role, and a role where none belongs', () => {
    expect(() => parseUsersCommand(['role', 'ann'])).toThrow(/^Usage: npm run users/);
    expect(() => parseUsersCommand(['role', 'ann', 'owner'])).toThrow(
      errorText('ROLE_UNKNOWN', 'owner'),
    );
    expect(() => parseUsersCommand(['disable', 'ann', 'admin'])).toThrow(/^Usage: npm run users/);
    expect(() => parseUsersCommand(['passwd', 'ann', 'secret-password'])).toThrow(/^Usage/);
    expect(() => parseUsersCommand(['promote', 'ann'])).toThrow(/^Usage/);
  });
});
