import { SCREEN_PATHS, TEXT_BUNDLES } from '@tessera/contract';
import { Link } from 'react-router';
import { useTexts } from '../lib/i18n';

export function NotFound() {
  const texts = useTexts(TEXT_BUNDLES.shell);
  return (
    <section className="screen">
      <h1 className="screen-title">{texts.notFoundTitle}</h1>
      <p className="screen-text">
        {texts.notFoundText} <Link to={SCREEN_PATHS.dashboard}>{texts.notFoundLink}</Link>.
      </p>
    </section>
  );
}
