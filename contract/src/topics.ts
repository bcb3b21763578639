// MQTT topic names of SPEC §7 and the answer topic of each command (DESIGN §3).

export const COMMAND_ACTIONS = [
  'list-low-definition',
  'delete-low-definition',
  'list-high-definition',
  'delete-high-definition',
  'list-tag',
  'create-tag',
  'update-tag',
  'delete-tag',
  'assign-tag',
  'unassign-tag',
  'refresh-low-definition',
  // Beyond SPEC §7 (issue 13); answered on a topic the spec's clients already read.
  'star-low-definition',
  'generate-image',
] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

export const QUERY_TOPIC_NAMES = [
  'status-generate-image',
  'list-tag',
  'status-tag',
  'list-low-definition',
  'status-low-definition',
  'list-high-definition',
  'status-high-definition',
] as const;
export type QueryTopicName = (typeof QUERY_TOPIC_NAMES)[number];

/** What the messaging service subscribes to: every command of every user. */
export const COMMAND_SUBSCRIPTION = 'command/+/user/+';

export const RESPONSE_TOPIC_FOR_ACTION: Readonly<Record<CommandAction, QueryTopicName>> = {
  'list-low-definition': 'list-low-definition',
  'delete-low-definition': 'status-low-definition',
  'refresh-low-definition': 'status-low-definition',
  'star-low-definition': 'status-low-definition',
  'list-high-definition': 'list-high-definition',
  'delete-high-definition': 'status-high-definition',
  'list-tag': 'list-tag',
  'create-tag': 'status-tag',
  'update-tag': 'status-tag',
  'delete-tag': 'status-tag',
  'assign-tag': 'status-tag',
  'unassign-tag': 'status-tag',
  'generate-image': 'status-generate-image',
};

export function isCommandAction(value: unknown): value is CommandAction {
  return (COMMAND_ACTIONS as readonly unknown[]).includes(value);
}

export function commandTopic(action: CommandAction, user: string): string {
  return `command/${action}/user/${user}`;
}

export function queryTopic(name: QueryTopicName, user: string): string {
  return `query/${name}/user/${user}`;
}

/** The topic a command's answer (or, for generate-image, its status messages) goes to. */
export function responseTopic(action: CommandAction, user: string): string {
  return queryTopic(RESPONSE_TOPIC_FOR_ACTION[action], user);
}

/** The seven topics a signed-in user's client subscribes to. */
export function userQueryTopics(user: string): string[] {
  return QUERY_TOPIC_NAMES.map((name) => queryTopic(name, user));
}

/** The action and user of a command topic, or undefined for any other topic. */
export function parseCommandTopic(
  topic: string,
): { action: CommandAction; user: string } | undefined {
  const levels = topic.split('/');
  if (levels.length !== 4) return undefined;
  const [root, action, userLevel, user] = levels;
  if (root !== 'command' || userLevel !== 'user' || !isCommandAction(action)) return undefined;
  if (user === undefined || user === '') return undefined;
  return { action, user };
}
