import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import { WebhooksPanel } from './webhooks-panel';

/** Route `/webhooks`: the signed-in user's endpoints and their deliveries. */
export function WebhooksScreen() {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  return (
    <section className="screen webhooks" aria-labelledby="webhooks-title">
      <header>
        <h1 id="webhooks-title" className="screen-title">
          {T.title}
        </h1>
        <p className="screen-text">{T.intro}</p>
      </header>
      <WebhooksPanel scope="own" />
    </section>
  );
}
