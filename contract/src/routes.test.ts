import { describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  API_ROUTES,
  SCREEN_PATHS,
  hdImageUrl,
  imageUrl,
  inputImageUrl,
  ldImageUrl,
  ldThumbnailUrl,
  routeUrl,
  thumbnailUrl,
  zipFileUrl,
  zipProgressUrl,
} from './routes.js';

/** The path a browser requests for `url`, after its URL parser has resolved it. */
function requestedPath(url: string): string {
  return new URL(url, 'http://tessera.test').pathname;
}

describe('the API routes', () => {
  it('[B1] [B2] [B3] keeps the paths of SPEC §7 verbatim', () => {
    expect(API_ROUTES.title).toBe('/api/title');
    expect(API_ROUTES.theme).toBe('/api/theme');
    expect(API_ROUTES.brokerUrl).toBe('/api/mosquitto/url');
    expect(API_ROUTES.login).toBe('/api/login');
    expect(API_ROUTES.hdStatus).toBe('/api/query/status-generate-image');
    expect(API_ROUTES.previewStatus).toBe('/api/query/status-generate-image/preview');
    expect(API_ROUTES.generatePreview).toBe('/api/command/generate-image/preview');
    expect(ldImageUrl('a.png')).toBe('/api/images/ld/a.png');
    expect(ldThumbnailUrl('a.png')).toBe('/api/images/ld/thumbnail/a.png');
    expect(hdImageUrl('a.png')).toBe('/api/images/hd/a.png');
    expect(thumbnailUrl('hd', 'a.png')).toBe('/api/images/hd/thumbnail/a.png');
  });

  it('names each path once, every one under the API prefix', () => {
    const paths = Object.values(API_ROUTES);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path.startsWith(API_PREFIX)).toBe(true);
  });

  it('builds each image URL from its own route', () => {
    expect(imageUrl('input', 'ref.jpg')).toBe('/api/images/input/ref.jpg');
    expect(inputImageUrl('ref.jpg')).toBe(imageUrl('input', 'ref.jpg'));
    expect(ldImageUrl('x.png')).toBe(imageUrl('ld', 'x.png'));
    expect(zipFileUrl('abc_-9')).toBe('/api/images/zip/abc_-9');
    expect(zipProgressUrl('abc_-9')).toBe('/api/query/zip-download/abc_-9');
  });
});

describe('routeUrl', () => {
  it('percent-encodes a value as one path segment', () => {
    expect(ldImageUrl('stone wall #2?.png')).toBe('/api/images/ld/stone%20wall%20%232%3F.png');
    expect(ldImageUrl('100%.png')).toBe('/api/images/ld/100%25.png');
    expect(ldImageUrl('piedra-ñ.png')).toBe('/api/images/ld/piedra-%C3%B1.png');
    expect(zipProgressUrl('a/b')).toBe('/api/query/zip-download/a%2Fb');
  });

  it('keeps separators and dot segments inside the value, where a URL parser cannot resolve them', () => {
    for (const trick of ['../hd/b.png', '..\\b.png', 'a/../../b.png', '%2e%2e', '?x=1', '#top']) {
      const url = ldImageUrl(trick);
      // The browser asks for exactly the route with one encoded segment, never another path.
      expect(requestedPath(url)).toBe(url);
      expect(requestedPath(url).startsWith('/api/images/ld/')).toBe(true);
      expect(decodeURIComponent(url.slice('/api/images/ld/'.length))).toBe(trick);
    }
  });

  it("refuses '.' and '..', which a URL parser would resolve to another route", () => {
    expect(() => ldImageUrl('..')).toThrow(RangeError);
    expect(() => ldThumbnailUrl('.')).toThrow(RangeError);
    expect(() => zipFileUrl('..')).toThrow(RangeError);
    // A name that merely holds dots is a name.
    expect(ldImageUrl('...')).toBe('/api/images/ld/...');
    expect(ldImageUrl('..a.png')).toBe('/api/images/ld/..a.png');
  });

  it('fills every parameter of a template and leaves a route without any as it is', () => {
    expect(routeUrl('/api/x/:first/y/:second', { first: 'a b', second: 'c' })).toBe(
      '/api/x/a%20b/y/c',
    );
    expect(routeUrl(API_ROUTES.inputs, {})).toBe('/api/query/inputs');
  });

  it('refuses a template whose parameter was not given', () => {
    const params = {} as { filename: string };
    expect(() => routeUrl(API_ROUTES.ldImage, params)).toThrow(TypeError);
  });

  it('keeps every screen outside the API, each at its own path', () => {
    const paths = Object.values(SCREEN_PATHS);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path.startsWith(API_PREFIX)).toBe(false);
  });
});
