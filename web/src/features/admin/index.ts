// Admin (issue 29, parts 2, 4 and 5): the users screen, HD retention and the audit trail, for admins only.
export { AdminAuditScreen } from './audit-screen';
export { AdminRetentionScreen } from './retention-screen';
export { AdminUsersScreen } from './users-screen';
