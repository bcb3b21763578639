import { TEXT_BUNDLES, formatImageDate, inputImageUrl, ldThumbnailUrl } from '@tessera/contract';
import type { InputImage } from '@tessera/contract';
import { useNavigate } from 'react-router';
import { generateWithReference } from '../generate';
import { useInputs } from './use-inputs';
import { useLocale, useTexts } from '../../lib/i18n';
import './input-screen.css';

/**
 * Route `/input` (beyond the spec, which leaves it open): the reference images the user uploaded,
 * each with the images generated from it, and a way back to Generate with one of them.
 */
export function InputScreen() {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.inputs);
  const { inputs, isLoading, isError } = useInputs();

  return (
    <section className="screen inputs">
      <header className="inputs-header">
        <h1 className="screen-title">{texts.title}</h1>
        <p className="screen-text">{texts.lead}</p>
      </header>
      {isLoading ? (
        <div className="inputs-state" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>{texts.loading}</span>
        </div>
      ) : isError ? (
        <p className="inputs-state inputs-error" role="alert">
          {TEXTS.imageListError}
        </p>
      ) : inputs.length === 0 ? (
        <p className="inputs-state">{texts.empty}</p>
      ) : (
        <ul className="inputs-list" aria-label={texts.title}>
          {inputs.map((input) => (
            <ReferenceCard key={input.filename} input={input} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReferenceCard({ input }: { input: InputImage }) {
  const texts = useTexts(TEXT_BUNDLES.inputs);
  const locale = useLocale();
  const navigate = useNavigate();
  const count = input.images.length;
  const headingId = `reference-${input.filename}`;
  return (
    <li className="inputs-card" aria-labelledby={headingId}>
      <img className="inputs-reference" src={inputImageUrl(input.filename)} alt="" loading="lazy" />
      <div className="inputs-body">
        <div className="inputs-title">
          <h2 id={headingId} className="inputs-name">
            {input.filename}
          </h2>
          <p className="inputs-meta">
            {formatImageDate({ created_at: input.created_at }, undefined, locale)} ·{' '}
            {texts.generatedCount(count)}
          </p>
        </div>
        {count > 0 && (
          <ul className="inputs-results" aria-label={texts.generatedFrom(input.filename)}>
            {input.images.map((image) => (
              <li key={image}>
                <img src={ldThumbnailUrl(image)} alt={image} title={image} loading="lazy" />
              </li>
            ))}
          </ul>
        )}
        <button
          type="button"
          className="button inputs-use"
          aria-label={texts.useFile(input.filename)}
          onClick={() => void navigate(generateWithReference(input.filename))}
        >
          {texts.use}
        </button>
      </div>
    </li>
  );
}
