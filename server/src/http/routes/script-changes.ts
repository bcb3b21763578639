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
import type { ZodType } from 'zod';
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
  async function run(reply: FastifyReply, call: () => Promise<object>, status = 200) {
    try {
      return reply.status(status).send(await call());
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      return reply.status(REFUSAL_STATUS[err.code] ?? 400).send({ error: err.message });
    }
  }

  /** One route: the body read by `schema`, refused with `invalid`'s text, then `call`. */
  function command<T>(
    path: string,
    schema: ZodType<T>,
    invalid: (error: ParseFailure) => string,
    call: (owner: Owner, fields: T & ReturnType<typeof envelope>) => Promise<object>,
    status = 200,
  ) {
    app.post(path, { preHandler: app.requireUser }, async (request, reply) => {
      const body = schema.safeParse(request.body);
      if (!body.success) return reply.status(400).send({ error: invalid(body.error) });
      const owner = ownerOf(request);
      return run(reply, () => call(owner, { ...envelope(owner), ...body.data }), status);
    });
  }
  const refused = (text: string) => () => text;
  const tagRules = (error: ParseFailure) => refusalText(error, errorText('TAG_FIELDS_INVALID'));

  command(
    API_ROUTES.starLd,
    starRequestSchema,
    refused(errorText('STAR_REQUEST_INVALID')),
    (owner, fields) => commands['star-low-definition'](owner, fields),
  );
  command(
    API_ROUTES.deleteLd,
    imageDeletionSchema,
    refused(errorText('IMAGE_REQUEST_INVALID')),
    (owner, fields) => commands['delete-low-definition'](owner, fields),
  );
  command(
    API_ROUTES.deleteHd,
    imageDeletionSchema,
    refused(errorText('IMAGE_REQUEST_INVALID')),
    (owner, fields) => commands['delete-high-definition'](owner, fields),
  );
  command(
    API_ROUTES.createTag,
    tagFieldsSchema,
    tagRules,
    (owner, fields) => commands['create-tag'](owner, fields),
    201,
  );
  command(API_ROUTES.updateTag, tagFieldsSchema, tagRules, (owner, fields) =>
    commands['update-tag'](owner, fields),
  );
  command(API_ROUTES.deleteTag, tagIdRequestSchema, refused(errorText('TAG_ID_INVALID')), (o, f) =>
    commands['delete-tag'](o, f),
  );
};
