// Before anything parses with zod: no eval under the Content-Security-Policy.
import './zod-without-eval';
// The app's CSS first: base.css fixes the order of the cascade layers the other files use.
import './base.css';
import './layout.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyBrowserLocale } from '../lib/i18n';
import { Providers } from './providers';
import { AppRouter } from './router';
import { StartUp } from './startup';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

// The language chosen here before, or the browser's, before the first screen shows.
applyBrowserLocale();

createRoot(container).render(
  <StrictMode>
    <Providers>
      <StartUp>
        <AppRouter />
      </StartUp>
    </Providers>
  </StrictMode>,
);
