import {
  adminCreateUserRequestSchema,
  adminPasswordRequestSchema,
  adminRemoveRequestSchema,
  adminRoleRequestSchema,
  API_ROUTES,
  auditQuerySchema,
  errorText,
  quotaDefaultsSchema,
  userQuotasSchema,
  type ServerErrorCode,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, AuditLog } from '../../services/audit.js';
import type { UsageService } from '../../services/usage.js';
import type { QuotaService } from '../../services/quotas.js';
import { ProvisioningError, UserError, type UserService } from '../../services/users.js';
import { ownerOf } from '../session.js';
import { adminRetentionRoutes, type AdminRetentionApi } from './admin-retention.js';

export interface AdminApi {
  users: UserService;
  audit: Pick<AuditLog, 'list'>;
  retention: AdminRetentionApi;
  /** Usage at a glance (issue 29, part 6). */
  usage: Pick<UsageService, 'glance'>;
  /** Quotas (issue 29, part 3); `usage` also answers a member's own (routes/storage-usage.ts). */
  quotas: Pick<QuotaService, 'defaults' | 'setDefaults' | 'setForUser' | 'usage'>;
}

/** The HTTP status of each refusal of an account change; any other is a 400. */
const REFUSAL_STATUS: Partial<Record<ServerErrorCode, number>> = {
  USER_UNKNOWN: 404,
  USER_EXISTS: 409,
  USER_RETIRED: 409,
  USER_NOT_RETIRED: 409,
  TAKE_OVER_NOT_ADMIN: 403,
  LAST_ADMIN: 409,
};

interface Params {
  username: string;
}

/**
 * The administrator's API (issue 29; shapes in contract/admin.ts). The guard is this plugin's own
 * hook, so it covers every route registered here: 401 without a session, 403 for a member.
 */
export const adminRoutes: FastifyPluginAsync<AdminApi> = async (
  app,
  { users, audit, retention, usage, quotas },
) => {
  app.addHook('preHandler', app.requireUser);
  app.addHook('preHandler', app.requireAdmin);
  // Registered after the guard's hooks: they apply inside it too.
  await app.register(adminRetentionRoutes, { retention });

  const actor = (request: FastifyRequest): Actor => ({
    name: ownerOf(request).username,
    address: request.ip,
  });

  /** Runs an account change; a refusal answers its contract text with its status. */
  async function answer<T>(request: FastifyRequest, reply: FastifyReply, change: () => Promise<T>) {
    try {
      return await change();
    } catch (err) {
      if (err instanceof UserError)
        return reply.status(REFUSAL_STATUS[err.code ?? 'ADMIN_REQUEST_INVALID'] ?? 400).send({
          error: err.message,
        });
      if (err instanceof ProvisioningError) {
        request.log.error({ err }, 'account changed, broker not updated');
        return reply.status(502).send({ error: errorText('BROKER_NOT_UPDATED') });
      }
      throw err;
    }
  }

  const invalid = (reply: FastifyReply) =>
    reply.status(400).send({ error: errorText('ADMIN_REQUEST_INVALID') });

  app.get(API_ROUTES.adminUsers, async () => ({ users: await users.overview() }));

  app.post(API_ROUTES.adminUsers, async (request, reply) => {
    const body = adminCreateUserRequestSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    const { username, password, role } = body.data;
    return answer(request, reply, async () => {
      const created = await users.create(username, password, role, actor(request));
      return reply.status(201).send(created);
    });
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserPassword, async (request, reply) => {
    const body = adminPasswordRequestSchema.safeParse(request.body ?? {});
    if (!body.success) return invalid(reply);
    const { username } = request.params;
    return answer(request, reply, () =>
      users.resetPassword(username, body.data.password, actor(request)),
    );
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserRole, async (request, reply) => {
    const body = adminRoleRequestSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    const { username } = request.params;
    return answer(request, reply, async () => {
      await users.setRole(username, body.data.role, actor(request));
      return { user: await users.view(username) };
    });
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserDisable, async (request, reply) => {
    const { username } = request.params;
    return answer(request, reply, async () => {
      await users.disable(username, actor(request));
      return { user: await users.view(username) };
    });
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserEnable, async (request, reply) => {
    const { username } = request.params;
    return answer(request, reply, async () => {
      await users.enable(username, actor(request));
      return { user: await users.view(username) };
    });
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserRemove, async (request, reply) => {
    const body = adminRemoveRequestSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    const { username } = request.params;
    return answer(request, reply, () => users.remove(username, actor(request), body.data.images));
  });

  app.post<{ Params: Params }>(API_ROUTES.adminUserTakeOver, async (request, reply) => {
    const { username } = request.params;
    const by = actor(request);
    return answer(request, reply, () => users.takeOver(username, by.name, by));
  });

  app.get(API_ROUTES.adminQuotaDefaults, async () => ({ defaults: await quotas.defaults() }));

  app.put(API_ROUTES.adminQuotaDefaults, async (request, reply) => {
    const body = quotaDefaultsSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('QUOTA_INVALID') });
    return { defaults: await quotas.setDefaults(body.data, actor(request)) };
  });

  app.put<{ Params: Params }>(API_ROUTES.adminUserQuotas, async (request, reply) => {
    const body = userQuotasSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('QUOTA_INVALID') });
    const { username } = request.params;
    return answer(request, reply, async () => {
      await quotas.setForUser(username, body.data, actor(request));
      return { user: await users.view(username) };
    });
  });

  app.get(API_ROUTES.adminAudit, async (request, reply) => {
    const query = auditQuerySchema.safeParse(request.query);
    if (!query.success) return invalid(reply);
    return audit.list(query.data);
  });

  app.get(API_ROUTES.adminUsage, () => usage.glance());
};
