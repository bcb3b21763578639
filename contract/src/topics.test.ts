import { describe, expect, it } from 'vitest';
import {
  COMMAND_ACTIONS,
  COMMAND_SUBSCRIPTION,
  QUERY_TOPIC_NAMES,
  RESPONSE_TOPIC_FOR_ACTION,
  commandTopic,
  parseCommandTopic,
  queryTopic,
  responseTopic,
  userQueryTopics,
} from './topics.js';

describe('topics', () => {
  it('[Q2] publishes commands to command/{action}/user/{username}', () => {
    expect(commandTopic('list-tag', 'alice')).toBe('command/list-tag/user/alice');
    expect(commandTopic('generate-image', 'bob')).toBe('command/generate-image/user/bob');
  });

  it('[Q4] knows the twelve command actions of SPEC §7, and star-low-definition (issue 13)', () => {
    expect(COMMAND_ACTIONS).toEqual([
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
      'star-low-definition',
      'generate-image',
    ]);
  });

  it('[Q1] [A2] subscribes a user to the seven query topics ending in user/{username}', () => {
    expect(QUERY_TOPIC_NAMES).toHaveLength(7);
    expect(queryTopic('status-tag', 'alice')).toBe('query/status-tag/user/alice');
    expect(userQueryTopics('alice')).toEqual([
      'query/status-generate-image/user/alice',
      'query/list-tag/user/alice',
      'query/status-tag/user/alice',
      'query/list-low-definition/user/alice',
      'query/status-low-definition/user/alice',
      'query/list-high-definition/user/alice',
      'query/status-high-definition/user/alice',
    ]);
  });

  it('[A2] the service listens to every command of every user', () => {
    expect(COMMAND_SUBSCRIPTION).toBe('command/+/user/+');
  });

  it('[A2] parses a command topic into its action and user', () => {
    expect(parseCommandTopic('command/assign-tag/user/alice')).toEqual({
      action: 'assign-tag',
      user: 'alice',
    });
    for (const topic of [
      'command/assign-tag/user/',
      'command/unknown/user/alice',
      'command/assign-tag/user/alice/extra',
      'command/assign-tag/users/alice',
      'query/list-tag/user/alice',
      'command/assign-tag',
      '',
    ]) {
      expect(parseCommandTopic(topic), topic).toBeUndefined();
    }
  });

  it('[H3] [Q3] answers each command on its query topic', () => {
    expect(RESPONSE_TOPIC_FOR_ACTION).toEqual({
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
    });
    expect(responseTopic('generate-image', 'alice')).toBe('query/status-generate-image/user/alice');
  });
});
