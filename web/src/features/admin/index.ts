// Admin (issue 29, parts 2 and 5): the users screen and the audit trail, for admins only.
export { AdminAuditScreen } from './audit-screen';
export { AdminUsersScreen } from './users-screen';
