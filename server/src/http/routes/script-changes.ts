import {
  API_ROUTES,
  errorText,
  imageDeletionSchema,
  starRequestSchema,
  tagFieldsSchema,
  tagIdRequestSchema,
  type ServerErrorCode,
} from '@tessera/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { CommandHandlers } from '../../messaging/handlers/index.js';
import type { Owner } from '../../owner.js';
import { ServiceError } from '../../services/errors.js';
import { ownerOf } from '../session.js';

/** The messaging commands that change a user's images and tags, as scripts reach them over HTTP. */
export type ScriptChangeCommands = Pick<
  CommandHandlers,
  | 'star-low-definition'
  | 'delete-low-definition'
  | 'delete-high-definition'
  | 'create-tag'
  | 'update-tag'
  | 'delete-tag'
>;

/** The status of each refusal the image and tag services give; any other is the request's. */
const REFUSAL_STATUS: Partial<Record<ServerErrorCode, number>> = {
  IMAGE_NOT_FOUND: 404,
  TAG_NOT_FOUND: 404,
  TAG_ID_TAKEN: 409,
  TAG_NAME_TAKEN: 409,
  TAG_LIMIT_REACHED: 409,
};

/** A command's envelope for a caller that HTTP already names: the handlers take it, unread. */
function envelope(owner: Owner) {
  return { transactionid: 'http', user: owner.username };
}

/** A parse failure, as zod gives it: only the issues' kinds and texts are read. */
interface ParseFailure {
  issues: readonly { code: string; message: string }[];
}

/**
 * The text of a malformed request: the contract's own rule texts when a rule refused it (a tag
 * name against SPEC §5: tags.ts, as the MQTT command answers), else the route's coded text.
 */
function refusalText(error: ParseFailure, fallback: string): string {
  const ruleTexts = error.issues.filter((issue) => issue.code === 'custom').map((i) => i.message);
  return ruleTexts.length > 0 ? ruleTexts.join('; ') : fallback;
}

/**
 * Stars, deletions and tags for scripts (issue 30, part 1): each route runs the very handler the
 * messaging service runs for the command of the same name, so the rules, the texts and the
 * refusal of another user's images and tags (not found, as to MQTT) are the same.
 */
export const scriptChangeRoutes: FastifyPluginAsync<{ commands: ScriptChangeCommands }> = async (
  app,
  { commands },
) => {
  /** Runs one command for the caller; a service's refusal answers its status and text. */
  async function run(
    reply: FastifyReply,
    call: () => Promise<Record<string, unknown>>,
    status = 200,
  ) {
    try {
      return reply.status(status).send(await call());
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return reply.status(REFUSAL_STATUS[err.code] ?? 400).send({ error: err.message });
    }
  }

  app.post(API_ROUTES.starLd, { preHandler: app.requireUser }, async (request, reply) => {
    const body = starRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('STAR_REQUEST_INVALID') });
    const owner = ownerOf(request);
    return run(reply, () =>
      commands['star-low-definition'](owner, { ...envelope(owner), ...body.data }),
    );
  });

  for (const [path, action] of [
    [API_ROUTES.deleteLd, 'delete-low-definition'],
    [API_ROUTES.deleteHd, 'delete-high-definition'],
  ] as const) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      const body = imageDeletionSchema.safeParse(request.body);
      if (!body.success)
        return reply.status(400).send({ error: errorText('IMAGE_REQUEST_INVALID') });
      const owner = ownerOf(request);
      return run(reply, () => commands[action](owner, { ...envelope(owner), ...body.data }));
    });
  }

  app.post(API_ROUTES.createTag, { preHandler: app.requireUser }, async (request, reply) => {
    const body = tagFieldsSchema.safeParse(request.body);
    if (!body.success)
      return reply
        .status(400)
        .send({ error: refusalText(body.error, errorText('TAG_FIELDS_INVALID')) });
    const owner = ownerOf(request);
    return run(
      reply,
      () => commands['create-tag'](owner, { ...envelope(owner), ...body.data }),
      201,
    );
  });

  app.post(API_ROUTES.updateTag, { preHandler: app.requireUser }, async (request, reply) => {
    const body = tagFieldsSchema.safeParse(request.body);
    if (!body.success)
      return reply
        .status(400)
        .send({ error: refusalText(body.error, errorText('TAG_FIELDS_INVALID')) });
    const owner = ownerOf(request);
    return run(reply, () => commands['update-tag'](owner, { ...envelope(owner), ...body.data }));
  });

  app.post(API_ROUTES.deleteTag, { preHandler: app.requireUser }, async (request, reply) => {
    const body = tagIdRequestSchema.safeParse(request.body);
    if (!body.success) return reply.status(400).send({ error: errorText('TAG_ID_INVALID') });
    const owner = ownerOf(request);
    return run(reply, () => commands['delete-tag'](owner, { ...envelope(owner), ...body.data }));
  });
};
