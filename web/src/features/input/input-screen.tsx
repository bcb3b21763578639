import { TEXT_BUNDLES, formatImageDate, inputImageUrl, ldThumbnailUrl } from '@tessera/contract';
import type { InputImage } from '@tessera/contract';
import { useNavigate } from 'react-router';
import { generateWithReference } from '../generate';
import { useInputs } from './use-inputs';
import { useTexts } from '../../lib/i18n';
import './input-screen.css';

/**
 * Route `/input` (beyond the spec, which leaves it open): the reference images the user uploaded,
 * each with the images generated from it, and a way back to Generate with one of them.
 */
export function InputScreen() {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const { inputs, isLoading, isError } = useInputs();

  return (
    <section className="screen inputs">
      <header className="inputs-header">
        <h1 className="screen-title">References</h1>
        <p className="screen-text">
          The reference images you uploaded, with the images generated from each.
        </p>
      </header>
      {isLoading ? (
        <div className="inputs-state" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>Loading references…</span>
        </div>
      ) : isError ? (
        <p className="inputs-state inputs-error" role="alert">
          {TEXTS.imageListError}
        </p>
      ) : inputs.length === 0 ? (
        <p className="inputs-state">No references yet: upload one on Generate.</p>
      ) : (
        <ul className="inputs-list" aria-label="References">
          {inputs.map((input) => (
            <ReferenceCard key={input.filename} input={input} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReferenceCard({ input }: { input: InputImage }) {
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
            {formatImageDate({ created_at: input.created_at })} ·{' '}
            {count === 1 ? '1 generated image' : `${count} generated images`}
          </p>
        </div>
        {count > 0 && (
          <ul className="inputs-results" aria-label={`Generated from ${input.filename}`}>
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
          aria-label={`Use ${input.filename} as reference`}
          onClick={() => void navigate(generateWithReference(input.filename))}
        >
          Use as reference
        </button>
      </div>
    </li>
  );
}
