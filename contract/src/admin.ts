// The administrator's API (issue 29): roles, the users overview and its actions, the audit trail.
// Only admins reach these routes (every other user gets 403); nothing here is shown to members.
import { z } from 'zod';
import { userQuotasSchema } from './quotas.js';

/** What a user may do: an admin also administers the studio; a member uses it (SPEC's user). */
export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const userRoleSchema = z.enum(USER_ROLES);

/** Every admin route path begins with this: the server guards all of them at once. */
export const ADMIN_API_PREFIX = '/api/admin/';

/** One user as the users screen lists them. Times are ISO 8601; bytes are whole numbers. */
export const adminUserSchema = z.object({
  username: z.string(),
  role: userRoleSchema,
  createdAt: z.string(),
  /** The last sign-in or request (updated at most every few minutes); null: never. */
  lastSeenAt: z.string().nullable(),
  /** Set while the user is disabled: no sign-in, no broker connection; data kept. */
  disabledAt: z.string().nullable(),
  /** Set once removed with their images kept: the account never signs in again. */
  retiredAt: z.string().nullable(),
  ldImages: z.number().int().nonnegative(),
  hdImages: z.number().int().nonnegative(),
  /** Images, material maps and print files, as recorded in the database. */
  storageBytes: z.number().int().nonnegative(),
  /** Jobs of any kind waiting or running now. */
  queuedJobs: z.number().int().nonnegative(),
  /** The user's own quotas (issue 29, part 3): each null follows the default. */
  quotas: userQuotasSchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({ users: z.array(adminUserSchema) });
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/** POST create: without `password`, the server generates one and answers it, once. */
export const adminCreateUserRequestSchema = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024).optional(),
  role: userRoleSchema.optional().default('member'),
});
export type AdminCreateUserRequest = z.input<typeof adminCreateUserRequestSchema>;

/** POST password: without `password`, one is generated. Ends the user's sessions either way. */
export const adminPasswordRequestSchema = z.object({
  password: z.string().min(1).max(1024).optional(),
});

/** The answer of create and password reset: the generated password, shown once, if any. */
export const adminPasswordResponseSchema = z.object({
  username: z.string(),
  generatedPassword: z.string().optional(),
});
export type AdminPasswordResponse = z.infer<typeof adminPasswordResponseSchema>;

export const adminRoleRequestSchema = z.object({ role: userRoleSchema });

/**
 * What becomes of a removed user's images: `delete` removes them with the account; `keep` retires
 * the account (no sign-in, name kept) and leaves every image, map and print file in place.
 */
export const REMOVED_IMAGES_CHOICES = ['keep', 'delete'] as const;
export const adminRemoveRequestSchema = z.object({ images: z.enum(REMOVED_IMAGES_CHOICES) });
export type AdminRemoveRequest = z.infer<typeof adminRemoveRequestSchema>;

export const adminRemoveResponseSchema = z.object({
  username: z.string(),
  images: z.enum(REMOVED_IMAGES_CHOICES),
  ldImages: z.number().int().nonnegative(),
  hdImages: z.number().int().nonnegative(),
  /** Files removed from the file store (`delete`), or 0. */
  filesRemoved: z.number().int().nonnegative(),
});
export type AdminRemoveResponse = z.infer<typeof adminRemoveResponseSchema>;

/**
 * POST take over: a retired user's images (LD and HD, with their tags, stars, metadata, material
 * maps, print files and references) become the signed-in admin's, renamed where the admin has
 * the name already; the emptied account is then removed. A re-run finishes an interrupted one.
 */
export const adminTakeOverResponseSchema = z.object({
  username: z.string(),
  /** The admin who has them now. */
  to: z.string(),
  ldImages: z.number().int().nonnegative(),
  hdImages: z.number().int().nonnegative(),
  /** Images renamed because the admin had their name already. */
  renamed: z.number().int().nonnegative(),
  /** Files copied to the admin's place in the file store. */
  files: z.number().int().nonnegative(),
});
export type AdminTakeOverResponse = z.infer<typeof adminTakeOverResponseSchema>;

/** Any admin action's plain answer: the user as listed after the change. */
export const adminUserResponseSchema = z.object({ user: adminUserSchema });

/**
 * What the audit trail records. The last two are for quotas and retention (issue 29, parts 3 and
 * 4), recorded once those exist.
 */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-in-failed',
  'user-created',
  'user-removed',
  'images-taken-over',
  'user-disabled',
  'user-enabled',
  'role-changed',
  'password-reset',
  'quota-changed',
  'retention-run',
  'api-token-created',
  'api-token-revoked',
  // An endpoint's changes (issue 30, part 3): its owner's or, for everyone's, an admin's.
  'webhook-created',
  'webhook-changed',
  'webhook-removed',
  'webhook-secret-rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The actor of a change made with `npm run users` on the server's shell. */
export const CLI_ACTOR = 'cli';

/** The actor of the first administrator's creation, by the server's first start. */
export const FIRST_START_ACTOR = 'first-start';

export const auditEntrySchema = z.object({
  /** Ascending; the paging cursor. */
  id: z.number().int(),
  at: z.string(),
  /** Who did it: a username, `cli`, or null (a failed sign-in has no one signed in). */
  actor: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  /** Whom or what it concerned (a username), when anyone. */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /** The client's address (HTTP and MQTT), when the action came over the network. */
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_MAX = 200;

/** GET audit's query: every filter optional; newest first, `before` an id to page on. */
export const auditQuerySchema = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor: z.string().min(1).max(64).optional(),
  target: z.string().min(1).max(64).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).optional().default(50),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** The `before` of the next (older) page; absent on the last page. */
  nextBefore: z.number().int().optional(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
