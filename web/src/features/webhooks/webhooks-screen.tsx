import { WEBHOOK_TEXTS } from '@tessera/contract';
import { WebhooksPanel } from './webhooks-panel';

const T = WEBHOOK_TEXTS;

/** Route `/webhooks`: the signed-in user's endpoints and their deliveries. */
export function WebhooksScreen() {
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
