import { promptColour, TEXT_BUNDLES } from '@tessera/contract';
import type { UnderstoodTerm } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import './term-chips.css';

export interface TermChipsProps {
  terms: readonly UnderstoodTerm[];
  /** What the list is ("Understood words"), or `labelledBy`: the id of a visible text saying it. */
  label?: string;
  labelledBy?: string;
  /** The negative prompt's: the engine keeps out what they name. */
  excluded?: boolean;
}

/**
 * The words of a prompt the builtin engine understood (issue 27), as chips: a colour with a swatch
 * of it, a scale or a finish labelled by its kind. Under the prompt fields and in an image's details.
 */
export function TermChips({ terms, label, labelledBy, excluded = false }: TermChipsProps) {
  const texts = useTexts(TEXT_BUNDLES.promptChips);
  return (
    <ul
      className={`term-chips${excluded ? ' is-excluded' : ''}`}
      {...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label })}
    >
      {terms.map((term, index) => (
        <li key={`${index}-${term.id}`} className={`term-chip is-${term.kind}`}>
          {term.kind === 'colour' ? (
            <span
              className="term-chip-swatch"
              role="img"
              aria-label={texts.kinds.colour}
              style={{ background: promptColour(term.id)?.hex ?? 'transparent' }}
            />
          ) : (
            <span className="term-chip-kind">{texts.kinds[term.kind]}</span>
          )}
          <span className="term-chip-text">{term.text}</span>
        </li>
      ))}
    </ul>
  );
}
