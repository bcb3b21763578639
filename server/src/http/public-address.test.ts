import { describe, expect, it } from 'vitest';
import { allowedHostNames, brokerUrlResolver, hostNameOf } from './public-address.js';

describe('the broker address a browser is given', () => {
  const resolve = brokerUrlResolver({
    allowedHosts: ['tiles.example', 'localhost'],
    path: '/mqtt',
    port: () => 8080,
  });

  it('uses the request Host when it names this server', () => {
    expect(resolve({ protocol: 'https', host: 'tiles.example' })).toBe('wss://tiles.example/mqtt');
    expect(resolve({ protocol: 'http', host: 'LOCALHOST:8080' })).toBe('ws://LOCALHOST:8080/mqtt');
  });

  it('never echoes a Host that is not one of its names', () => {
    for (const host of ['evil.example', 'evil.example:8080', 'tiles.example.evil', 'a/b', '']) {
      expect(resolve({ protocol: 'http', host })).toBe('ws://tiles.example:8080/mqtt');
    }
  });

  it('reads the name of a Host header and refuses anything else', () => {
    expect(hostNameOf('Tiles.Example:443')).toBe('tiles.example');
    expect(hostNameOf('[::1]:8080')).toBe('[::1]');
    expect(hostNameOf('user@evil.example')).toBeUndefined();
    expect(hostNameOf('evil.example/path')).toBeUndefined();
    expect(hostNameOf('evil.example:8080:1')).toBeUndefined();
  });

  it('answers to its loopback names and its own name when nothing is configured', () => {
    const names = allowedHostNames(undefined);
    expect(names).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]']));
    expect(allowedHostNames(['Tiles.Example'])).toEqual(['tiles.example']);
  });
});
