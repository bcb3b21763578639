import type { Migration, MigrationProvider } from 'kysely';
import * as usersAndSessions from './0001-users-and-sessions.js';
import * as imagesAndTags from './0002-images-and-tags.js';
import * as jobs from './0003-jobs.js';
import * as jobLookup from './0004-job-lookup.js';
import * as credentialChanges from './0008-credential-changes.js';
import * as imageSearch from './0009-image-search.js';
import * as hdQueueControl from './0010-hd-queue-control.js';
import * as jobRemotePrompt from './0011-job-remote-prompt.js';
import * as materialMaps from './0012-material-maps.js';
import * as tagOrder from './0013-tag-order.js';
import * as sharedLimitsAndZips from './0014-shared-limits-and-zip-downloads.js';
import * as jobLeases from './0015-job-leases.js';
import * as messagingSecrets from './0016-messaging-secrets.js';
import * as inputReferences from './0017-input-references.js';
import * as jobNotice from './0018-job-notice.js';
import * as printFiles from './0019-print-files.js';
import * as materialHeight from './0020-material-height.js';
import * as tagPageIndex from './0021-tag-page-index.js';
import * as imageListVersion from './0022-image-list-version.js';
import * as rolesAndAudit from './0023-roles-and-audit.js';
import * as hdRetention from './0024-hd-retention.js';
import * as userQuotas from './0025-user-quotas.js';
import * as apiTokens from './0026-api-tokens.js';
import * as webhooks from './0027-webhooks.js';
import * as webhookSecretsAndPruning from './0028-webhook-secrets-and-pruning.js';
import * as ssoIdTokens from './0029-sso-id-tokens.js';
import * as tagListVersion from './0030-tag-list-version.js';

// Listed in code rather than read from a folder, so the build needs no file copying and the
// order is explicit. Never edit a migration that has shipped: add the next one.
const migrations: Record<string, Migration> = {
  '0001-users-and-sessions': usersAndSessions,
  '0002-images-and-tags': imagesAndTags,
  '0003-jobs': jobs,
  '0004-job-lookup': jobLookup,
  '0008-credential-changes': credentialChanges,
  '0009-image-search': imageSearch,
  '0010-hd-queue-control': hdQueueControl,
  '0011-job-remote-prompt': jobRemotePrompt,
  '0012-material-maps': materialMaps,
  '0013-tag-order': tagOrder,
  '0014-shared-limits-and-zip-downloads': sharedLimitsAndZips,
  '0015-job-leases': jobLeases,
  '0016-messaging-secrets': messagingSecrets,
  '0017-input-references': inputReferences,
  '0018-job-notice': jobNotice,
  '0019-print-files': printFiles,
  '0020-material-height': materialHeight,
  '0021-tag-page-index': tagPageIndex,
  '0022-image-list-version': imageListVersion,
  '0023-roles-and-audit': rolesAndAudit,
  '0024-hd-retention': hdRetention,
  '0025-user-quotas': userQuotas,
  '0026-api-tokens': apiTokens,
  '0027-webhooks': webhooks,
  '0028-webhook-secrets-and-pruning': webhookSecretsAndPruning,
  '0029-sso-id-tokens': ssoIdTokens,
  '0030-tag-list-version': tagListVersion,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
