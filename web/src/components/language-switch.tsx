import { LOCALE_NAMES, LOCALES, TEXT_BUNDLES } from '@tessera/contract';
import { chooseLocale, useLocale, useTexts } from '../lib/i18n';
import './language-switch.css';

/** The two languages as buttons, the one shown pressed; the choice is remembered (issue 30). */
export function LanguageSwitch({ className }: { className?: string }) {
  const locale = useLocale();
  const texts = useTexts(TEXT_BUNDLES.shell);
  return (
    <div
      role="group"
      aria-label={texts.language}
      className={className ? `language-switch ${className}` : 'language-switch'}
    >
      {LOCALES.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          className="language-option"
          aria-pressed={option === locale}
          aria-label={LOCALE_NAMES[option]}
          title={LOCALE_NAMES[option]}
          onClick={() => chooseLocale(option)}
        >
          {option.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
