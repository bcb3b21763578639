import { formatAdminDate, TEXT_BUNDLES } from '@tessera/contract';
import type { WebhookDelivery, WEBHOOK_TEXTS } from '@tessera/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchDeliveries, resendDelivery } from '../../lib/api/webhooks';
import { useLocale, useTexts } from '../../lib/i18n';
import { DELIVERIES_REFRESH_MS, deliveriesKey } from './webhooks-query';

/** What the last try gave: its HTTP status, or why none came; the state when there was none. */
function lastResult(T: typeof WEBHOOK_TEXTS, delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return T.states[delivery.state];
  const result = last.status !== null ? T.statusCode(last.status) : T.noResponse;
  const why =
    last.error !== null && last.status === null ? ` (${T.attemptErrors[last.error]})` : '';
  return `${T.states[delivery.state]} · ${result}${why}`;
}

function eventName(T: typeof WEBHOOK_TEXTS, type: string): string {
  return type in T.events ? T.events[type as keyof typeof T.events] : type;
}

/** An endpoint's latest deliveries: event, time, tries, last result, next try, and resend. */
export function DeliveriesTable({ endpointId }: { endpointId: string }) {
  const T = useTexts(TEXT_BUNDLES.webhooks);
  const locale = useLocale();
  const client = useQueryClient();
  const deliveries = useQuery({
    queryKey: deliveriesKey(endpointId),
    queryFn: () => fetchDeliveries(endpointId),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
  const resend = useMutation({
    mutationFn: (delivery: string) => resendDelivery(endpointId, delivery),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
  });

  if (deliveries.isError) {
    return (
      <p className="webhooks-alert" role="alert">
        {deliveries.error.message}
      </p>
    );
  }
  if (deliveries.data?.length === 0) return <p className="screen-text">{T.noDeliveries}</p>;
  return (
    <div className="webhooks-table-wrap">
      <table className="webhooks-table" aria-label={T.deliveries}>
        <thead>
          <tr>
            <th scope="col">{T.columns.event}</th>
            <th scope="col">{T.columns.time}</th>
            <th scope="col">{T.columns.attempts}</th>
            <th scope="col">{T.columns.lastStatus}</th>
            <th scope="col">{T.columns.nextRetry}</th>
            <th scope="col">{T.columns.actions}</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data?.map((delivery) => (
            <tr key={delivery.id}>
              <td>{eventName(T, delivery.type)}</td>
              <td>{formatAdminDate(delivery.createdAt, undefined, locale)}</td>
              <td>{delivery.attempts.length}</td>
              <td>{lastResult(T, delivery)}</td>
              <td>
                {delivery.nextAttemptAt === null
                  ? T.none
                  : formatAdminDate(delivery.nextAttemptAt, undefined, locale)}
              </td>
              <td>
                <button
                  type="button"
                  className="button"
                  disabled={delivery.state === 'sending' || resend.isPending}
                  onClick={() => resend.mutate(delivery.id)}
                >
                  {T.resend}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
