import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxies, trustFunction } from './trusted-proxy.js';

/** A request from `peer` carrying X-Forwarded-For `forwarded`. */
function request(peer: string, forwarded?: string): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  } as unknown as IncomingMessage;
}

describe('TRUST_PROXY (issue 23, part 1)', () => {
  it("reads Fastify's trustProxy forms", () => {
    expect(parseTrustedProxies('false')).toBeUndefined();
    expect(parseTrustedProxies('true')).toEqual({ all: true });
    expect(parseTrustedProxies('2')).toEqual({ hops: 2 });
    expect(parseTrustedProxies('127.0.0.1, 10.0.0.0/8,loopback')).toEqual({
      addresses: ['127.0.0.1', '10.0.0.0/8', 'loopback'],
    });
  });

  it('refuses what names no proxy, naming the bad part', () => {
    expect(() => parseTrustedProxies('0')).toThrow('from 1 to 100');
    expect(() => parseTrustedProxies('proxy.example')).toThrow('invalid IP address: proxy.example');
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow('invalid range on address');
    expect(() => parseTrustedProxies(' , ')).toThrow('names no proxy');
  });

  it('takes the client from X-Forwarded-For only through trusted proxies', () => {
    const viaLoopback = trustFunction({ addresses: ['loopback'] });
    expect(clientAddressOf(request('127.0.0.1', '203.0.113.5'), viaLoopback)).toBe('203.0.113.5');
    // A client's own made-up hop before the proxy's is not believed: the proxy appended the real one.
    expect(clientAddressOf(request('127.0.0.1', '1.2.3.4, 203.0.113.5'), viaLoopback)).toBe(
      '203.0.113.5',
    );
    expect(clientAddressOf(request('10.9.9.9', '203.0.113.5'), viaLoopback)).toBe('10.9.9.9');
    expect(clientAddressOf(request('127.0.0.1', '203.0.113.5'))).toBe('127.0.0.1');
  });

  it('counts hops from this server: the nearest proxies are trusted, the client is the next', () => {
    const twoHops = trustFunction({ hops: 2 });
    expect(clientAddressOf(request('10.0.0.1', '1.2.3.4, 203.0.113.5, 10.0.0.2'), twoHops)).toBe(
      '203.0.113.5',
    );
    expect(clientAddressOf(request('10.0.0.1', '203.0.113.5'), trustFunction({ all: true }))).toBe(
      '203.0.113.5',
    );
  });
});
