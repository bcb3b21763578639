// Test doubles for the Generate and Input screens: a fake server behind fetch and messaging.
import { API_ROUTES, ldThumbnailUrl, seriesMetadata } from '@tessera/contract';
import type { GenerationStatusResponse, LdImage, PreviewEngine, Tag } from '@tessera/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { SCREEN_PATHS } from '@tessera/contract';
import { MessagingProvider } from '../../lib/messaging';
import { GenerateScreen } from './generate-screen';
import { clearGenerateSessions } from './generate-session';
import type { RequestClient } from '../../lib/messaging';

export interface FakeServerOptions {
  tags?: Tag[];
  /** Statuses the job posted as number `index` goes through; the last one stays. */
  job?: (index: number) => (GenerationStatusResponse | 'fail')[];
  /** Metadata of the image job `index` makes. */
  metadata?: (index: number) => Record<string, unknown>;
  inputs?: unknown;
  /** The engine the server makes previews with (issue 27); the builtin one unless told. */
  engine?: PreviewEngine;
}

/**
 * A fake Tessera: the preview POST and status calls and the image files over fetch, the
 * messaging commands through a fake request client. `hold()` makes the next status calls wait
 * until `release()`, so a test can look at the screen mid-batch.
 */
export function fakeServer(options: FakeServerOptions = {}) {
  const posted: FormData[] = [];
  const commands: { action: string; fields: Record<string, unknown> }[] = [];
  const images: LdImage[] = [];
  const fetched: string[] = [];
  let script: (GenerationStatusResponse | 'fail')[] = [];
  let step = 0;
  let gate: Promise<void> | null = null;
  let open: (() => void) | null = null;

  const job =
    options.job ??
    ((index: number) => [
      { status: 'in_progress' as const, percent: 50 },
      { status: 'finished' as const, percent: 100, output_image: `oak-${index}.png` },
    ]);

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const fetchFake = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    fetched.push(url);
    if (url === API_ROUTES.generatePreview && init?.method === 'POST') {
      const body = init.body as FormData;
      const index = posted.length;
      posted.push(body);
      script = job(index);
      step = 0;
      const output = script.find(
        (s): s is GenerationStatusResponse => s !== 'fail' && s.output_image !== undefined,
      )?.output_image;
      // A series (issue 25): face 1 is the output, faces 2..N beside it, all of one series_id.
      const faces = Number(body.get('faces') ?? 1);
      const series = (face: number) =>
        faces > 1 ? seriesMetadata({ seriesId: `series-${index}`, face, faces }) : {};
      for (let face = faces; output && face >= 1; face--) {
        const filename = face === 1 ? output : output.replace(/\.png$/, `-f${face}.png`);
        images.push({
          filename,
          thumbnail: ldThumbnailUrl(filename),
          metadata: {
            input_image_path: 'oak-ref-1a2b.png',
            cliptextencode_585: body.get('cliptextencode_585'),
            cliptextencode_716: body.get('cliptextencode_716'),
            ksampler_cfg: Number(body.get('ksampler_cfg')),
            ksampler_denoise: Number(body.get('ksampler_denoise')),
            ipadapter_weight: Number(body.get('ipadapter_weight')),
            style: Number(body.get('style')),
            kseed: Number(body.get('Kseed')),
            latent_width: Number(body.get('latent_width')),
            latent_height: Number(body.get('latent_height')),
            ...options.metadata?.(index),
            ...series(face),
          },
          tags: [],
        });
      }
      return json({ id: body.get('id'), status: 'queued' }, 202);
    }
    if (url.startsWith(API_ROUTES.previewStatus)) {
      if (gate) await gate;
      if (posted.length === 0) return json({ error: 'No generation yet' }, 404);
      const answer = script[Math.min(step++, script.length - 1)];
      return answer === 'fail' || answer === undefined
        ? json({ error: 'down' }, 503)
        : json(answer);
    }
    if (url.startsWith(API_ROUTES.inputImage.replace(':filename', ''))) {
      return new Response(new Uint8Array([137, 80, 78, 71]), {
        headers: { 'content-type': 'image/png' },
      });
    }
    if (url === API_ROUTES.engineInfo) return json({ preview: options.engine ?? 'builtin' });
    if (url === API_ROUTES.inputs) {
      return options.inputs instanceof Response
        ? options.inputs
        : json(options.inputs ?? { inputs: [] });
    }
    return json({ error: 'Not found' }, 404);
  });

  const client = {
    user: 'ana',
    request: vi.fn(async (action: string, fields: Record<string, unknown>) => {
      commands.push({ action, fields });
      const envelope = { transactionid: 't', user: 'ana', success: true };
      switch (action) {
        case 'list-tag':
          return { ...envelope, page: 1, size: 10, total: 0, tags: options.tags ?? [] };
        case 'list-low-definition':
          return { ...envelope, page: 1, size: 100, total: images.length, images: [...images] };
        default:
          return envelope;
      }
    }),
    sendHdCommand: vi.fn(async () => undefined),
    onHdStatus: () => () => undefined,
    dispose: () => undefined,
  } as unknown as RequestClient;

  return {
    fetch: fetchFake,
    client,
    posted,
    commands,
    fetched,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open?.();
    },
  };
}

/** Shows where the app went, for tests that navigate. */
function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

/** Renders `routes` inside the app's providers, at `path`. */
export function renderWithApp(
  client: RequestClient,
  path: string,
  routes: { path: string; element: ReactNode }[],
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MessagingProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            {routes.map((route) => (
              <Route key={route.path} path={route.path} element={route.element} />
            ))}
          </Routes>
          <Location />
        </MemoryRouter>
      </MessagingProvider>
    </QueryClientProvider>,
  );
}

/**
 * What every Generate screen test needs around it: the object URLs jsdom has not, logged
 * failures kept off the output (the tests read the screen), and a clean screen and session
 * after each test. Call it at the top of the test file.
 */
export function setUpGenerateScreenTests(): void {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    URL.createObjectURL = vi.fn(() => 'blob:reference');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    cleanup();
    clearGenerateSessions();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}

/** The Generate screen at its route on a fake server, and a user to drive it. */
export function renderGenerateScreen(options: FakeServerOptions = {}) {
  const server = fakeServer(options);
  vi.stubGlobal('fetch', server.fetch);
  renderWithApp(server.client, SCREEN_PATHS.generate, [
    { path: SCREEN_PATHS.generate, element: <GenerateScreen pollIntervalMs={0} /> },
  ]);
  return { server, user: userEvent.setup() };
}
