import { PROMPT_CHIP_TEXTS, SYNTHESIS_TEXTS, synthesisUsedText } from '@tessera/contract';
import type { ImageMetadata, UnderstoodTerm } from '@tessera/contract';
import { TermChips } from '../../components/prompt-terms';
import { Field } from './details-field';

/**
 * Issue 27: what the builtin engine recorded of the generation, when it did: the words of the
 * prompts it acted on, and the synthesis mode it used.
 */
export function EngineRecordFields({ metadata }: { metadata: ImageMetadata }) {
  const { promptTerms, synthesisUsed, synthesis } = metadata;
  return (
    <>
      {promptTerms && (
        <>
          <Field label={PROMPT_CHIP_TEXTS.understoodWords} wide>
            <Terms terms={promptTerms.positive} label={PROMPT_CHIP_TEXTS.understoodWords} />
          </Field>
          <Field label={PROMPT_CHIP_TEXTS.excludedWords} wide>
            <Terms terms={promptTerms.negative} label={PROMPT_CHIP_TEXTS.excludedWords} excluded />
          </Field>
        </>
      )}
      {synthesisUsed && (
        <Field label={SYNTHESIS_TEXTS.label}>{synthesisUsedText(synthesisUsed, synthesis)}</Field>
      )}
    </>
  );
}

/** The words as chips; a dash for none. */
function Terms(props: { terms: readonly UnderstoodTerm[]; label: string; excluded?: boolean }) {
  return props.terms.length === 0 ? '-' : <TermChips {...props} />;
}
