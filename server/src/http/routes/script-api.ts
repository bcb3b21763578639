import {
  API_ROUTES,
  errorText,
  hdListQuerySchema,
  hdOrderRequestSchema,
  ldListQuerySchema,
  MAX_PAGE_SIZE,
  tagAssignmentSchema,
  tagListQuerySchema,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { CommandHandlers } from '../../messaging/handlers/index.js';
import type { Owner } from '../../owner.js';
import type { HdOrderOutcome, HdService } from '../../services/hd.js';
import { stringifyPassingThrough } from '../../runtime/json-text.js';
import { ServiceError } from '../../services/errors.js';
import { ownerOf } from '../session.js';

/** The messaging commands scripts reach over HTTP: the very handlers MQTT runs, one set of rules. */
export type ScriptCommands = Pick<
  CommandHandlers,
  'list-low-definition' | 'list-high-definition' | 'list-tag' | 'assign-tag' | 'unassign-tag'
>;

/** What the HTTP HD order and its status need of the HD service. */
export type HdOrdersApi = Pick<HdService, 'orderSize' | 'job'>;

const ORDER_STATUS: Record<HdOrderOutcome['result'], number> = {
  queued: 202,
  'image-not-found': 404,
  'size-not-offered': 400,
  'over-quota': 413,
  'queue-full': 429,
  'already-ordered': 409,
};

/** A command's envelope for a caller that HTTP already names: the handlers take it, unread. */
function envelope(owner: Owner) {
  return { transactionid: 'http', user: owner.username };
}

/** A gallery page, written as the messaging service writes it: the metadata as stored. */
function sendList(reply: FastifyReply, answer: object): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(stringifyPassingThrough(answer));
}

/**
 * What scripts need that only MQTT offered (issue 30, part 1): the galleries, tags on images, an
 * HD order and its status. Each runs the messaging command's own handler or service method.
 */
export const scriptApiRoutes: FastifyPluginAsync<{
  commands: ScriptCommands;
  hdOrders: HdOrdersApi;
}> = async (app, { commands, hdOrders }) => {
  const listRefused = (reply: FastifyReply) =>
    reply.status(400).send({ error: errorText('LIST_REQUEST_INVALID', MAX_PAGE_SIZE) });

  app.get(API_ROUTES.ldList, { preHandler: app.requireUser }, async (request, reply) => {
    const query = ldListQuerySchema.safeParse(request.query);
    if (!query.success) return listRefused(reply);
    const owner = ownerOf(request);
    const { page, size, tags } = query.data;
    return sendList(
      reply,
      await commands['list-low-definition'](owner, {
        ...envelope(owner),
        page,
        size,
        ...(tags && { filters: { tags } }),
      }),
    );
  });

  app.get(API_ROUTES.hdList, { preHandler: app.requireUser }, async (request, reply) => {
    const query = hdListQuerySchema.safeParse(request.query);
    if (!query.success) return listRefused(reply);
    const owner = ownerOf(request);
    return sendList(
      reply,
      await commands['list-high-definition'](owner, { ...envelope(owner), ...query.data }),
    );
  });

  app.get(API_ROUTES.tagList, { preHandler: app.requireUser }, async (request, reply) => {
    const query = tagListQuerySchema.safeParse(request.query);
    if (!query.success) return listRefused(reply);
    const owner = ownerOf(request);
    reply.header('cache-control', 'no-store');
    return commands['list-tag'](owner, { ...envelope(owner), ...query.data });
  });

  for (const [path, action] of [
    [API_ROUTES.assignTag, 'assign-tag'],
    [API_ROUTES.unassignTag, 'unassign-tag'],
  ] as const) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      const body = tagAssignmentSchema.safeParse(request.body);
      if (!body.success) return reply.status(400).send({ error: errorText('TAG_REQUEST_INVALID') });
      const owner = ownerOf(request);
      try {
        return await commands[action](owner, { ...envelope(owner), ...body.data });
      } catch (err) {
        // The service's refusals are an unknown tag or image of this user.
        if (err instanceof ServiceError) return reply.status(404).send({ error: err.message });
        throw err;
      }
    });
  }

  app.post(API_ROUTES.hdOrder, { preHandler: app.requireUser }, async (request, reply) => {
    const body = hdOrderRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('HD_ORDER_INVALID') });
    const outcome = await hdOrders.orderSize(ownerOf(request), body.data);
    if (outcome.result !== 'queued')
      return reply.status(ORDER_STATUS[outcome.result]).send({ error: outcome.error });
    return reply.status(202).send({ id: body.data.id, status: 'queued' });
  });

  app.get(API_ROUTES.hdJob, { preHandler: app.requireUser }, async (request, reply) => {
    const { id } = request.params as { id: string };
    reply.header('cache-control', 'no-store');
    const job = await hdOrders.job(ownerOf(request), id);
    if (!job) return reply.status(404).send({ error: errorText('HD_JOB_UNKNOWN') });
    return job;
  });
};
