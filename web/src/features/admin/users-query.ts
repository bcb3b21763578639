import type { AdminUser } from '@tessera/contract';
import type { QueryClient } from '@tanstack/react-query';

/** Which dialog of the users screen is open, and for whom. */
export type UserDialog =
  | { kind: 'create' }
  | { kind: 'reset'; user: AdminUser }
  | { kind: 'remove'; user: AdminUser }
  | { kind: 'take-over'; user: AdminUser }
  | { kind: 'quotas'; user: AdminUser }
  | { kind: 'defaults' }
  | { kind: 'password'; username: string; password?: string };

/** How the row actions and the dialogs tell the users screen what came of them. */
export interface Report {
  setError: (text: string | null) => void;
  setNotice: (text: string | null) => void;
  setDialog: (dialog: UserDialog | null) => void;
}

export const ADMIN_USERS_QUERY_KEY = ['admin', 'users'] as const;
export const QUOTA_DEFAULTS_QUERY_KEY = ['admin', 'quota-defaults'] as const;

/** Puts one user as the server now lists them in place of the old row. */
export function replaceUser(users: AdminUser[], changed: AdminUser): AdminUser[] {
  return users.map((user) => (user.username === changed.username ? changed : user));
}

/** After an answer that changed a row: that row now, the rest read again in the background. */
export function showChangedUser(queryClient: QueryClient, changed: AdminUser): void {
  queryClient.setQueryData<AdminUser[]>(
    ADMIN_USERS_QUERY_KEY,
    (users) => users && replaceUser(users, changed),
  );
  void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_KEY });
}

export function readUsersAgain(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_QUERY_KEY });
}
