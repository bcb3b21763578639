// Webhooks (issue 30, part 3): the user's endpoints screen, and the panel the admins' tab shows.
export { WebhooksPanel } from './webhooks-panel';
export { WebhooksScreen } from './webhooks-screen';
