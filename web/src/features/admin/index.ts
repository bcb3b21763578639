// Admin (issue 29, parts 2, 4 and 5; issue 30, part 3): the users screen, HD retention, the audit
// trail and the webhooks for everyone, for admins only.
export { AdminAuditScreen } from './audit-screen';
export { AdminRetentionScreen } from './retention-screen';
export { AdminUsersScreen } from './users-screen';
export { AdminWebhooksScreen } from './webhooks-screen';
