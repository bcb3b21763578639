import { TEXT_BUNDLES, understandPrompt } from '@tessera/contract';
import { useId, useMemo } from 'react';
import { TermChips } from '../../components/prompt-terms';
import { useTexts } from '../../lib/i18n';

export interface PromptChipsProps {
  prompt: string;
  /** The negative prompt's chips say their words are excluded. */
  side: 'positive' | 'negative';
}

/**
 * Under a prompt field with the builtin engine (issue 27): the words it understood, as the person
 * types, and the words it leaves to the AI engine.
 */
export function PromptChips({ prompt, side }: PromptChipsProps) {
  const texts = useTexts(TEXT_BUNDLES.promptChips);
  const labelId = useId();
  const { terms, otherWords } = useMemo(() => understandPrompt(prompt), [prompt]);
  if (terms.length === 0 && otherWords.length === 0) return null;
  return (
    <div className="prompt-chips">
      {terms.length > 0 && (
        <div className="prompt-chips-row">
          <span id={labelId} className="prompt-chips-label">
            {side === 'positive' ? texts.understood : texts.excluded}
          </span>
          <TermChips terms={terms} labelledBy={labelId} excluded={side === 'negative'} />
        </div>
      )}
      {otherWords.length > 0 && (
        <p className="generate-hint prompt-other-words">
          {texts.otherWords(otherWords.join(', '))}
        </p>
      )}
    </div>
  );
}
