import { synthesisUsedText, TEXT_BUNDLES } from '@tessera/contract';
import type { ImageMetadata, UnderstoodTerm } from '@tessera/contract';
import { TermChips } from '../../components/prompt-terms';
import { useTexts } from '../../lib/i18n';
import { Field } from './details-field';

// Issue 27: what the builtin engine recorded of a generation, when it did.

/** The words of the prompts the engine acted on, under the prompts. */
export function PromptTermsFields({ metadata }: { metadata: ImageMetadata }) {
  const PROMPT_CHIP_TEXTS = useTexts(TEXT_BUNDLES.promptChips);
  const { promptTerms } = metadata;
  if (!promptTerms) return null;
  return (
    <>
      <Field label={PROMPT_CHIP_TEXTS.understoodWords} wide>
        <Terms terms={promptTerms.positive} label={PROMPT_CHIP_TEXTS.understoodWords} />
      </Field>
      <Field label={PROMPT_CHIP_TEXTS.excludedWords} wide>
        <Terms terms={promptTerms.negative} label={PROMPT_CHIP_TEXTS.excludedWords} excluded />
      </Field>
    </>
  );
}

/** The synthesis mode the engine used, and whether it chose it. */
export function SynthesisField({ metadata }: { metadata: ImageMetadata }) {
  const texts = useTexts(TEXT_BUNDLES.synthesis);
  const { synthesisUsed, synthesis } = metadata;
  if (!synthesisUsed) return null;
  return <Field label={texts.label}>{synthesisUsedText(synthesisUsed, synthesis, texts)}</Field>;
}

/** The words as chips; a dash for none. */
function Terms(props: { terms: readonly UnderstoodTerm[]; label: string; excluded?: boolean }) {
  return props.terms.length === 0 ? '-' : <TermChips {...props} />;
}
