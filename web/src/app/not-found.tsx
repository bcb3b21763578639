import { SCREEN_PATHS } from '@tessera/contract';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <section className="screen">
      <h1 className="screen-title">Page not found</h1>
      <p className="screen-text">
        There is nothing at this address.{' '}
        <Link to={SCREEN_PATHS.dashboard}>Go to the dashboard</Link>.
      </p>
    </section>
  );
}
