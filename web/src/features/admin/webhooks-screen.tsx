import { WEBHOOK_TEXTS } from '@tessera/contract';
import { WebhooksPanel } from '../webhooks';
import { AdminTabs } from './admin-tabs';

const T = WEBHOOK_TEXTS;

/** Route `/admin/webhooks` (issue 30, part 3): endpoints told of every user's events. */
export function AdminWebhooksScreen() {
  return (
    <section className="screen admin" aria-labelledby="admin-webhooks-title">
      <AdminTabs />
      <header className="admin-header">
        <div>
          <h1 id="admin-webhooks-title" className="screen-title">
            {T.adminTitle}
          </h1>
          <p className="screen-text">{T.adminIntro}</p>
        </div>
      </header>
      <WebhooksPanel scope="all" />
    </section>
  );
}
