import type { CommandPayload, RequestAction } from '@tessera/contract';
import type { Owner } from '../../owner.js';
import type { ImageService } from '../../services/images.js';
import type { TagService } from '../../services/tags.js';
import { imageHandlers } from './images.js';
import { tagHandlers } from './tags.js';

/** Answers one command: the fields the response carries beside transactionid, user and success. */
export type CommandHandler<A extends RequestAction> = (
  owner: Owner,
  command: CommandPayload<A>,
) => Promise<Record<string, unknown>>;

export type CommandHandlers = { [A in RequestAction]: CommandHandler<A> };

export interface HandlerServices {
  images: ImageService;
  tags: TagService;
}

/** Every request action of SPEC §7 has a handler; the type refuses a missing one. */
export function createCommandHandlers(services: HandlerServices): CommandHandlers {
  return { ...imageHandlers(services.images), ...tagHandlers(services.tags) };
}
