import { TEXT_BUNDLES } from '@tessera/contract';
import type { Tag } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';

export interface TagsSectionProps {
  tags: readonly Tag[];
  isLoading: boolean;
  selected: readonly string[];
  onToggle: (tagId: string) => void;
}

/** The collapsible Tags section of SPEC §2 (checklist G3): the tags every result will get. */
export function TagsSection({ tags, isLoading, selected, onToggle }: TagsSectionProps) {
  const texts = useTexts(TEXT_BUNDLES.generate);
  const chosen = tags.filter((tag) => selected.includes(tag.id)).length;
  return (
    <details className="generate-section">
      <summary className="generate-section-title">
        {texts.tags}
        {chosen > 0 && <span className="generate-count">{chosen}</span>}
      </summary>
      <div className="generate-section-body">
        {isLoading ? (
          <p className="generate-hint">{texts.loadingTags}</p>
        ) : tags.length === 0 ? (
          <p className="generate-hint">{texts.noTags}</p>
        ) : (
          <fieldset className="generate-tags">
            <legend className="generate-hint">{texts.assignTags}</legend>
            {tags.map((tag) => (
              <label key={tag.id} className="generate-tag">
                <input
                  type="checkbox"
                  checked={selected.includes(tag.id)}
                  onChange={() => onToggle(tag.id)}
                />
                <span className="generate-tag-swatch" style={{ background: tag.color }} />
                <span>{tag.name}</span>
              </label>
            ))}
          </fieldset>
        )}
      </div>
    </details>
  );
}
