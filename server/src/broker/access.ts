/**
 * Who may use which topic. Users talk to the service only through their own topics:
 * they read `query/<anything>/user/<self>` and write `command/<anything>/user/<self>`.
 * The service principal may do anything. deploy/mosquitto's ACL file says the same for Mosquitto.
 */
export type Principal = { kind: 'service' } | { kind: 'user'; username: string };

function ownTopic(topic: string, root: 'query' | 'command', username: string): boolean {
  const levels = topic.split('/');
  return (
    levels.length === 4 &&
    levels[0] === root &&
    levels[1] !== '' &&
    levels[1] !== '#' &&
    levels[2] === 'user' &&
    levels[3] === username
  );
}

/** A subscription filter; `+` may stand for the query name, never for the user. */
export function maySubscribe(principal: Principal, topicFilter: string): boolean {
  if (principal.kind === 'service') return true;
  return ownTopic(topicFilter, 'query', principal.username);
}

/** A publication; users publish commands, never retained ones, and never with wildcards. */
export function mayPublish(principal: Principal, topic: string, retain: boolean): boolean {
  if (principal.kind === 'service') return true;
  if (retain || topic.includes('+') || topic.includes('#')) return false;
  return ownTopic(topic, 'command', principal.username);
}
