import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import { WebhooksPanel } from '../webhooks';
import { AdminTabs } from './admin-tabs';

/** Route `/admin/webhooks` (issue 30, part 3): endpoints told of every user's events. */
export function AdminWebhooksScreen() {
  const T = useTexts(TEXT_BUNDLES.webhooks);
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
