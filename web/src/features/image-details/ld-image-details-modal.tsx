import {
  TEXT_BUNDLES,
  hdImageUrl,
  hdSizesForImage,
  inputImageUrl,
  isHdSizeLabel,
  ldImageUrl,
  plainNumber,
  readImageMetadata,
  SCREEN_PATHS,
} from '@tessera/contract';
import type { HdSizeLabel, LdImage, Locale, Tag } from '@tessera/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { StarImageButton } from '../../components/gallery/image-actions';
import { CrossIcon } from '../../components/icons';
import { useMessaging } from '../../lib/messaging';
import { orderHd, useImageHdState } from '../hd';
import { LayingPreviewButton } from '../laying';
import { MaterialMapsSection } from '../materials';
import { SeamlessPreview } from '../seamless';
import { useTags } from '../tags';
import { Field } from './details-field';
import { PromptTermsFields, SynthesisField } from './engine-record';
import type { RemixState } from './remix';
import { SeriesHdButton, SeriesSection } from './series-section';
import { useLocale, useTexts } from '../../lib/i18n';
import '../../components/gallery/dialog.css';
import './ld-image-details-modal.css';

export interface LdImageDetailsModalProps {
  image: LdImage;
  onClose: () => void;
  /** Given, the header has a Star toggle (the Dashboard's images, issue 13 feature 9). */
  onToggleStar?: (filename: string, starred: boolean) => void;
  /** For a face of a series (issue 25): the series' faces the screen holds, face 1 first. */
  seriesFaces?: readonly LdImage[];
  /** Given, a face of a series offers "Select series" (a gallery with a selection). */
  onSelectSeries?: (seriesId: string) => void;
}

/**
 * A field as the metadata holds it, a number in the chosen locale (3,5 in es-ES), or a dash when
 * the field is missing.
 */
function shown(value: number | string | undefined, locale: Locale): string {
  if (value === undefined) return '-';
  return typeof value === 'number' ? plainNumber(value, 6, locale) : value;
}

/**
 * The HD sizes offered for the image (M2): by its latent size when the metadata has it, else by
 * the picture's own size once loaded; none for a size that is no output format.
 */
export function hdSizesFor(
  metadata: Record<string, unknown>,
  naturalSize: { width: number; height: number } | undefined,
): readonly HdSizeLabel[] {
  const { latentWidth, latentHeight } = readImageMetadata(metadata);
  if (latentWidth !== undefined && latentHeight !== undefined) {
    return hdSizesForImage(latentWidth, latentHeight);
  }
  return naturalSize ? hdSizesForImage(naturalSize.width, naturalSize.height) : [];
}

/**
 * The LD Image Details modal (SPEC §2; M1–M7): what the image was made from, and the HD order.
 * A native <dialog> opened with showModal(), so focus stays inside and Escape closes it.
 */
export function LdImageDetailsModal({
  image,
  onClose,
  onToggleStar,
  seriesFaces = [image],
  onSelectSeries,
}: LdImageDetailsModalProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const T = useTexts(TEXT_BUNDLES.imageDetails);
  const locale = useLocale();
  const { close: closeLabel } = useTexts(TEXT_BUNDLES.dialog);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closed = useRef(false);
  const titleId = useId();
  const sizeId = useId();
  const client = useMessaging();
  const { tags } = useTags();
  const hd = useImageHdState(image.filename);
  const metadata = readImageMetadata(image.metadata);
  const { series } = metadata;
  const [naturalSize, setNaturalSize] = useState<{ width: number; height: number }>();
  const [size, setSize] = useState('');
  const sizes = hdSizesFor(image.metadata, naturalSize);
  const navigate = useNavigate();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  function close() {
    if (closed.current) return;
    closed.current = true;
    onClose();
  }

  /** Orders HD of `images` (this one, or every face of its series) at the chosen size. */
  function generateHd(images: readonly LdImage[] = [image]) {
    const sizeLabel = isHdSizeLabel(size) && sizes.includes(size) ? size : undefined;
    if (sizeLabel === undefined) {
      // SPEC §8: logged only.
      console.log(TEXTS.hdSizeRequired);
      return;
    }
    if (client === null) {
      console.error('Generate HD: the messaging client is not connected.');
      return;
    }
    // Fire and forget (SPEC §7); a publish failure is logged by the client. A series sends one
    // order per face, so its toasts and queue count are those of as many single orders.
    for (const { filename, metadata } of images) {
      orderHd(client, { image: filename, metadata, sizeLabel }).catch(() => undefined);
    }
    close();
  }

  /** Remix: Generate opens with this image's reference, parameters and tags filled in. */
  function remix() {
    const state: RemixState = {
      remix: { filename: image.filename, metadata: image.metadata, tags: image.tags },
    };
    close();
    void navigate(SCREEN_PATHS.generate, { state });
  }

  const imageTags = image.tags
    .map((id) => tags.find((tag) => tag.id === id))
    .filter((tag): tag is Tag => tag !== undefined);

  return (
    <dialog
      ref={dialogRef}
      className="dialog details-modal"
      aria-labelledby={titleId}
      onClose={close}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="details-content">
        <header className="details-header">
          <h2 id={titleId} className="details-title">
            {image.filename}
          </h2>
          <div className="details-header-actions">
            {onToggleStar && (
              <StarImageButton
                filename={image.filename}
                starred={image.starred ?? false}
                place="details"
                onToggleStar={onToggleStar}
              />
            )}
            <button type="button" className="details-close" aria-label={closeLabel} onClick={close}>
              <CrossIcon size={20} />
            </button>
          </div>
        </header>

        <div className="details-body">
          <div className="details-pictures">
            <SeamlessPreview
              src={ldImageUrl(image.filename)}
              alt={image.filename}
              imgProps={{
                onLoad: (event) => {
                  const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
                  if (width > 0 && height > 0) setNaturalSize({ width, height });
                },
              }}
            />
            <figure className="details-reference">
              <figcaption className="details-label">{T.referenceImage}</figcaption>
              {metadata.inputImagePath === undefined ? (
                <p className="details-missing">-</p>
              ) : (
                <img src={inputImageUrl(metadata.inputImagePath)} alt={T.referenceImage} />
              )}
            </figure>
          </div>

          <div className="details-side">
            <dl className="details-fields">
              <Field label={T.positivePrompt} wide>
                {shown(metadata.positivePrompt, locale)}
              </Field>
              <Field label={T.negativePrompt} wide>
                {shown(metadata.negativePrompt, locale)}
              </Field>
              <PromptTermsFields metadata={metadata} />
              <Field label={T.imaginationWeight}>{shown(metadata.imaginationWeight, locale)}</Field>
              <Field label={T.similarity}>{shown(metadata.similarity, locale)}</Field>
              <Field label={T.promptAdherence}>{shown(metadata.promptAdherence, locale)}</Field>
              <Field label={T.styleWeight}>{shown(metadata.styleWeight, locale)}</Field>
              <Field label={T.seed}>{shown(metadata.seed, locale)}</Field>
              <SynthesisField metadata={metadata} />
              <Field label={T.tags} wide>
                {imageTags.length === 0 ? (
                  '-'
                ) : (
                  <ul className="details-tags" aria-label={T.tags}>
                    {imageTags.map((tag) => (
                      <li key={tag.id} className="details-tag">
                        <span
                          className="details-tag-swatch"
                          style={{ background: tag.color }}
                          aria-hidden="true"
                        />
                        {tag.name}
                      </li>
                    ))}
                  </ul>
                )}
              </Field>
            </dl>
            {series && (
              <SeriesSection
                face={series}
                faces={seriesFaces}
                onSelectSeries={
                  onSelectSeries &&
                  (() => {
                    onSelectSeries(series.seriesId);
                    close();
                  })
                }
              />
            )}
            <button type="button" className="button details-remix" onClick={remix}>
              {T.remix}
            </button>
            <LayingPreviewButton image={image} faces={seriesFaces} />

            <section className="details-hd" aria-label={T.hdVersion}>
              <div className="field">
                <label className="field-label" htmlFor={sizeId}>
                  {T.outputSize}
                </label>
                <select
                  id={sizeId}
                  className="field-input"
                  value={size}
                  onChange={(event) => setSize(event.target.value)}
                >
                  <option value="">{T.selectSize}</option>
                  {sizes.map((label) => (
                    <option key={label} value={label}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="details-hd-actions">
                <button
                  type="button"
                  className="button button-primary"
                  disabled={hd.running}
                  onClick={() => generateHd()}
                >
                  {hd.running ? TEXTS.generatingHdButton(hd.percent) : T.generateHd}
                </button>
                {series && seriesFaces.length > 1 && (
                  <SeriesHdButton faces={seriesFaces} onOrder={generateHd} />
                )}
                {hd.notice !== undefined && (
                  <p className="details-hd-notice" role="status">
                    {hd.notice}
                  </p>
                )}
                {hd.downloadImage !== undefined && (
                  <a
                    className="button details-download"
                    href={hdImageUrl(hd.downloadImage)}
                    download
                  >
                    {TEXTS.downloadHdImage}
                  </a>
                )}
              </div>
            </section>

            <MaterialMapsSection kind="ld" image={image.filename} tileSizes={sizes} />
          </div>
        </div>
      </div>
    </dialog>
  );
}
