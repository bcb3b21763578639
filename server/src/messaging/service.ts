import {
  COMMAND_SUBSCRIPTION,
  commandSchemas,
  errorText,
  isCommandAction,
  isValidUsername,
  responseTopic,
  type CommandAction,
  type CommandPayload,
  type HdStatusMessage,
  type RequestAction,
} from '@tessera/contract';
import type { MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { noMetrics, type CommandOutcome, type Metrics } from '../runtime/metrics.js';
import { stringifyPassingThrough } from '../runtime/json-text.js';
import { ServiceError } from '../services/errors.js';
import type { Owner } from '../owner.js';
import type { UserService } from '../services/users.js';
import type { CommandHandlers } from './handlers/index.js';
import { brokerHdStatusSink, type HdStatusSink } from './hd-status-relay.js';
import {
  MAX_COMMAND_BYTES,
  parseCommand,
  readTransactionId,
  refusalOf,
  replyTopic,
} from './replies.js';
import { commandCost, UserBudgets } from '../limits/user-budget.js';
import type { SharedLimiter } from '../limits/shared-limiter.js';
import { SerialQueue } from './serial-queue.js';

export { MAX_COMMAND_BYTES };

/** Takes parsed generate-image commands; it answers on the status topic itself (fire and forget). */
export interface HdOrders {
  /** What it resolves with is the HTTP order's business (issue 30); MQTT answers nothing. */
  order(owner: Owner, command: CommandPayload<'generate-image'>): Promise<unknown>;
}

/** Who a command's topic names (a removed or disabled user's commands are refused). */
export type OwnerDirectory = Pick<UserService, 'owner'>;

/** A command topic (`command/<action>/user/<user>`), read once when the command arrives. */
interface CommandTopic {
  topic: string;
  /** The action level as sent, for a reply to an unknown action. */
  action: string;
  /** The action, when it is one of the contract's. */
  known: CommandAction | undefined;
  user: string;
}

type Reply = { transactionid: string; user: string; success: boolean; error?: string } & Record<
  string,
  unknown
>;

/**
 * The messaging service: answers `command/<action>/user/<user>` on the user's query topics
 * (DESIGN §3). The topic's user is the only identity that counts; bad input gets a failure
 * response when it has a transactionid and a log line otherwise, and never changes anything.
 */
/**
 * Points (limits/user-budget.ts: a command, more for a large one) one user may send per second,
 * all connections together, and at once. Checked before a command is parsed or queued, so a flood
 * costs the others little; on Mosquitto, which has no rate setting, it is the only rate limit.
 */
export interface UserCommandRate {
  perSecond: number;
  burst: number;
}

/**
 * On an external broker several processes answer commands: each command goes to one of them
 * (an MQTT shared subscription, which Mosquitto 2 keeps for MQTT 3.1.1 clients too).
 */
export const SHARED_COMMAND_SUBSCRIPTION = `$share/tessera/${COMMAND_SUBSCRIPTION}`;

export interface MessagingOptions {
  /** The command subscription: the plain one (one process), or {@link SHARED_COMMAND_SUBSCRIPTION}. */
  subscription?: string;
  /**
   * The user's command rate counted where every process sees it (the database, Redis), beside
   * this process's own token bucket: with the commands shared out, each process sees only some.
   */
  sharedRate?: SharedLimiter;
  /** Where each command's action and outcome are counted; default: nowhere. */
  metrics?: Metrics;
}

/** The shared form of a user command rate: `burst` commands per window, the rate on average. */
export function sharedRateWindow(rate: UserCommandRate): {
  keyPrefix: string;
  points: number;
  duration: number;
} {
  return {
    keyPrefix: 'user-commands',
    points: rate.burst,
    duration: Math.max(1, Math.ceil(rate.burst / rate.perSecond)),
  };
}

export class MessagingService {
  private readonly queue = new SerialQueue();
  private readonly budgets?: UserBudgets;
  private readonly subscription: string;
  private readonly hdStatus: HdStatusSink;
  private readonly metrics: Metrics;

  constructor(
    private readonly client: MqttClient,
    private readonly owners: OwnerDirectory,
    private readonly handlers: CommandHandlers,
    private readonly hdOrders: HdOrders,
    private readonly log: Logger,
    rate?: UserCommandRate,
    private readonly options: MessagingOptions = {},
  ) {
    this.subscription = options.subscription ?? COMMAND_SUBSCRIPTION;
    if (rate) this.budgets = new UserBudgets(rate);
    this.hdStatus = brokerHdStatusSink(client, log);
    this.metrics = options.metrics ?? noMetrics;
  }

  /** An HD status message to one user (query/status-generate-image/user/{username}). */
  publishHdStatus(username: string, message: HdStatusMessage): void {
    this.hdStatus.publishHdStatus(username, message);
  }

  async start(): Promise<void> {
    this.client.on('message', (topic, payload) => this.receive(topic, payload));
    const granted = await this.client.subscribeAsync(this.subscription, { qos: 0 });
    // A broker that refuses the subscription answers with a failure code, not an error.
    if (granted.some((grant) => grant.qos >= 128)) {
      throw new Error(`The broker refused the subscription ${this.subscription} (check its ACL)`);
    }
  }

  /** Stops taking commands, finishes the ones under way, then leaves the broker. */
  async stop(): Promise<void> {
    await this.client.unsubscribeAsync(this.subscription).catch(() => undefined);
    await this.queue.idle();
    await this.client.endAsync();
  }

  private receive(topic: string, payload: Buffer): void {
    // The broker's own statistics the same connection may follow (broker-connections.ts).
    if (topic.startsWith('$SYS/')) return;
    const command = readCommandTopic(topic);
    if (!command) {
      this.log.warn({ topic }, 'command on a malformed topic dropped');
      return;
    }
    const { user } = command;
    // This process's bucket first: a flood is refused before anything is queued or counted.
    if (this.budgets && !this.budgets.charge(user, payload.length)) {
      return this.refuseOverRate(command, payload);
    }
    const shared = this.options.sharedRate;
    void this.queue.run(user, async () => {
      if (shared && !(await this.withinSharedRate(shared, user, payload.length))) {
        return this.refuseOverRate(command, payload);
      }
      const outcome = await this.handle(command, payload);
      this.count(command, outcome);
    });
  }

  /** Unknown actions share one label: what a client sends cannot grow the metric's series. */
  private count(command: CommandTopic, outcome: CommandOutcome): void {
    this.metrics.mqttCommand(command.known ?? 'unknown', outcome);
  }

  /** Only a few refusals a second are answered: each answer goes to all the user's connections. */
  private refuseOverRate(command: CommandTopic, payload: Buffer): void {
    const { topic, user } = command;
    this.count(command, 'over-rate');
    if (this.budgets && !this.budgets.mayAnswerRefusal(user)) {
      this.log.debug({ topic }, 'command over the user rate dropped');
      return;
    }
    const answer = refusalOf(topic, payload, errorText('COMMANDS_TOO_FAST'));
    this.log.info({ topic, answered: answer !== undefined }, 'command over the user rate refused');
    if (answer) this.send(answer.topic, answer.payload);
  }

  /** A store that fails lets the command through: the process's own bucket still holds. */
  private async withinSharedRate(
    shared: SharedLimiter,
    user: string,
    bytes: number,
  ): Promise<boolean> {
    try {
      await shared.consume(user, commandCost(bytes));
      return true;
    } catch (err) {
      if (err instanceof Error) {
        this.log.warn({ err: err.message }, 'shared command rate not counted');
        return true;
      }
      return false;
    }
  }

  /** Answers one command; how it went, for the metrics. */
  private async handle(
    { topic, action, known, user }: CommandTopic,
    payload: Buffer,
  ): Promise<CommandOutcome> {
    const body = parseCommand(payload);
    // A payload too large or broken to parse is still answered when its head names the transaction.
    const transactionid = readTransactionId(body, payload);
    const fail = (error: string, outcome: CommandOutcome = 'refused'): CommandOutcome => {
      if (transactionid === undefined) {
        this.log.warn({ topic, error }, 'command refused (no transactionid to answer)');
        return outcome;
      }
      this.log.info({ topic, transactionid, error }, 'command refused');
      this.publish(replyTopic(action, user), { transactionid, user, success: false, error });
      return outcome;
    };

    if (body === undefined)
      return fail(
        errorText(payload.length > MAX_COMMAND_BYTES ? 'COMMAND_TOO_LARGE' : 'COMMAND_MALFORMED'),
      );
    if (!known) return fail(errorText('UNKNOWN_ACTION', action));
    if ((body as { user?: unknown }).user !== user) return fail(errorText('COMMAND_USER_MISMATCH'));
    if (known === 'generate-image') return this.handleHdOrder(user, body);
    const parsed = commandSchemas[known].safeParse(body);
    if (!parsed.success) return fail(describeIssues(parsed.error));
    const owner = await this.owners.owner(user);
    if (!owner) return fail(errorText('UNKNOWN_USER'));

    try {
      const fields = await this.dispatch(known, owner, parsed.data);
      this.publish(responseTopic(known, user), {
        ...fields,
        transactionid: parsed.data.transactionid,
        user,
        success: true,
      });
      return 'ok';
    } catch (err) {
      if (err instanceof ServiceError) return fail(err.message);
      this.log.error({ err, topic }, 'command failed');
      return fail(errorText('COMMAND_FAILED'), 'failed');
    }
  }

  /**
   * generate-image has no transactionid and no response (SPEC §7): a refused order is told on
   * the status topic, as an error for the order's id and image, when the payload names them.
   */
  private async handleHdOrder(user: string, body: object): Promise<CommandOutcome> {
    const parsed = commandSchemas['generate-image'].safeParse(body);
    if (!parsed.success) {
      const error = describeIssues(parsed.error);
      const { id, image } = body as { id?: unknown; image?: unknown };
      this.log.info({ user, error }, 'HD order refused');
      if (typeof id === 'string' && typeof image === 'string' && id.length <= 128) {
        this.publishHdStatus(user, {
          id,
          image: image.slice(0, 255),
          status: 'error',
          percent: 0,
          error,
        });
      }
      return 'refused';
    }
    const owner = await this.owners.owner(user);
    if (!owner) {
      this.log.warn({ user }, 'HD order from an unknown user dropped');
      return 'refused';
    }
    try {
      await this.hdOrders.order(owner, parsed.data);
      return 'ok';
    } catch (err) {
      this.log.error({ err, user }, 'HD order failed');
      this.publishHdStatus(user, {
        id: parsed.data.id,
        image: parsed.data.image,
        status: 'error',
        percent: 0,
        error: errorText('COMMAND_FAILED'),
      });
      return 'failed';
    }
  }

  private dispatch(
    action: RequestAction,
    owner: Owner,
    command: unknown,
  ): Promise<Record<string, unknown>> {
    // The schema of this very action parsed `command`, so the handler gets the type it expects.
    const handler = this.handlers[action] as (
      owner: Owner,
      command: unknown,
    ) => Promise<Record<string, unknown>>;
    return handler(owner, command);
  }

  private publish(topic: string, reply: Reply): void {
    this.send(topic, stringifyPassingThrough(reply));
  }

  private send(topic: string, payload: string): void {
    this.client.publish(topic, payload, { qos: 0, retain: false }, (err) => {
      if (err) this.log.warn({ err: err.message, topic }, 'response not sent');
    });
  }
}

/** The command topic's levels, or undefined when it is not `command/<action>/user/<a valid user>`. */
function readCommandTopic(topic: string): CommandTopic | undefined {
  const levels = topic.split('/');
  const [root, action = '', userLevel, user = ''] = levels;
  if (levels.length !== 4 || root !== 'command' || userLevel !== 'user' || !isValidUsername(user))
    return undefined;
  return { topic, action, known: isCommandAction(action) ? action : undefined, user };
}

/** The contract's own texts (tag names...) stand as they are; other issues name their field. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.code === 'custom'
        ? issue.message
        : `${issue.path.join('.') || 'payload'}: ${issue.message}`,
    )
    .join('; ');
}
