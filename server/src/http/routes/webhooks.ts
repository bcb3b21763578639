import {
  API_ROUTES,
  WEBHOOK_TEXTS,
  webhookCreateSchema,
  webhookListQuerySchema,
  webhookUpdateSchema,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WebhookCaller, WebhookResult, WebhookService } from '../../services/webhooks.js';
import { ownerOf } from '../session.js';

/** What the webhook routes use of their service. */
export type WebhooksApi = Pick<
  WebhookService,
  'list' | 'create' | 'update' | 'remove' | 'deliveries' | 'sendTest' | 'resend' | 'rotateSecret'
>;

const caller = (request: FastifyRequest): WebhookCaller => ({
  owner: ownerOf(request),
  admin: request.role === 'admin',
  address: request.ip,
});

/** The answer's value, or its refusal with the contract's text; never kept by a cache. */
function send<T>(reply: FastifyReply, result: WebhookResult<T>, status = 200) {
  reply.header('cache-control', 'no-store');
  if (!result.ok) return reply.status(result.status).send({ error: result.error });
  if (result.value === null) return reply.status(204).send();
  return reply.status(status).send(result.value);
}

const invalid = (reply: FastifyReply) =>
  reply.status(400).send({ error: WEBHOOK_TEXTS.errors.invalid });

interface ById {
  Params: { id: string };
}
interface ByDelivery {
  Params: { id: string; delivery: string };
}

/**
 * Issue 30, part 3: a user's webhook endpoints (and an admin's for everyone, scope 'all'), their
 * deliveries, a test event, a resend and a secret rotation. Cookie-authenticated, like every /api route.
 */
export const webhookRoutes: FastifyPluginAsync<{ webhooks: WebhooksApi }> = async (
  app,
  { webhooks },
) => {
  const guarded = { preHandler: app.requireUser };

  app.get(API_ROUTES.webhooks, guarded, async (request, reply) => {
    const query = webhookListQuerySchema.safeParse(request.query);
    if (!query.success) return invalid(reply);
    const result = await webhooks.list(caller(request), query.data.scope);
    return send(reply, result.ok ? { ok: true, value: { endpoints: result.value } } : result);
  });

  app.post(API_ROUTES.webhooks, guarded, async (request, reply) => {
    const body = webhookCreateSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    return send(reply, await webhooks.create(caller(request), body.data), 201);
  });

  app.put<ById>(API_ROUTES.webhook, guarded, async (request, reply) => {
    const body = webhookUpdateSchema.safeParse(request.body);
    if (!body.success) return invalid(reply);
    return send(reply, await webhooks.update(caller(request), request.params.id, body.data));
  });

  app.post<ById>(API_ROUTES.webhookRemove, guarded, async (request, reply) =>
    send(reply, await webhooks.remove(caller(request), request.params.id)),
  );

  app.post<ById>(API_ROUTES.webhookTest, guarded, async (request, reply) =>
    send(reply, await webhooks.sendTest(caller(request), request.params.id), 202),
  );

  // The new secret is in this answer only (send: no-store).
  app.post<ById>(API_ROUTES.webhookRotateSecret, guarded, async (request, reply) =>
    send(reply, await webhooks.rotateSecret(caller(request), request.params.id)),
  );

  app.get<ById>(API_ROUTES.webhookDeliveries, guarded, async (request, reply) => {
    const result = await webhooks.deliveries(caller(request), request.params.id);
    return send(reply, result.ok ? { ok: true, value: { deliveries: result.value } } : result);
  });

  app.post<ByDelivery>(API_ROUTES.webhookResend, guarded, async (request, reply) =>
    send(reply, await webhooks.resend(caller(request), request.params.id, request.params.delivery)),
  );
};
