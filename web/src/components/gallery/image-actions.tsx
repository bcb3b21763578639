import { TEXT_BUNDLES } from '@tessera/contract';
import { useTexts } from '../../lib/i18n';
import { DownloadIcon, StarIcon, TagIcon, TrashIcon } from '../icons';

/** Where an image's controls sit: a grid tile's hover bar, or a table row. */
export type ControlPlace = 'tile' | 'row';

const ACTION_CLASS = { tile: 'tile-action', row: 'icon-button' } as const;
const DANGER_ACTION_CLASS = {
  tile: 'tile-action tile-action-danger',
  row: 'icon-button icon-button-danger',
} as const;

export function SelectImageCheckbox({
  filename,
  selected,
  onToggleSelect,
  className,
}: {
  filename: string;
  selected: boolean;
  onToggleSelect: (filename: string) => void;
  className?: string;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <input
      type="checkbox"
      className={className}
      aria-label={texts.select(filename)}
      checked={selected}
      onChange={() => onToggleSelect(filename)}
    />
  );
}

const STAR_CLASS = { ...ACTION_CLASS, details: 'details-star' } as const;

/**
 * Stars or unstars the image (issue 13, feature 9), on a tile, a row or the details dialog. One
 * name whatever the state, as a toggle button has: aria-pressed tells whether it is starred.
 */
export function StarImageButton({
  filename,
  starred,
  place,
  onToggleStar,
}: {
  filename: string;
  starred: boolean;
  place: ControlPlace | 'details';
  /** Gets the state the image should take: starred after a click on an unstarred one. */
  onToggleStar: (filename: string, starred: boolean) => void;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <button
      type="button"
      className={`${STAR_CLASS[place]} star-button`}
      aria-label={texts.star(filename)}
      aria-pressed={starred}
      title={starred ? texts.unstarTitle : texts.starTitle}
      onClick={() => onToggleStar(filename, !starred)}
    >
      <StarIcon filled={starred} />
    </button>
  );
}

export function AssignTagsButton({
  filename,
  place,
  onAssignTags,
}: {
  filename: string;
  place: ControlPlace;
  onAssignTags: (filename: string) => void;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <button
      type="button"
      className={ACTION_CLASS[place]}
      aria-label={texts.assignTags(filename)}
      title={texts.assignTagsTitle}
      onClick={() => onAssignTags(filename)}
    >
      <TagIcon />
    </button>
  );
}

export function DownloadImageLink({
  filename,
  href,
  place,
}: {
  filename: string;
  href: string;
  place: ControlPlace;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <a
      className={ACTION_CLASS[place]}
      href={href}
      download={filename}
      aria-label={texts.downloadFile(filename)}
      title={texts.download}
    >
      <DownloadIcon />
    </a>
  );
}

/** Disabled while the image is being deleted; on a tile it also reads "Delete" when wide enough. */
export function DeleteImageButton({
  filename,
  busy,
  place,
  onDelete,
}: {
  filename: string;
  busy: boolean;
  place: ControlPlace;
  onDelete: (filename: string) => void;
}) {
  const texts = useTexts(TEXT_BUNDLES.gallery);
  return (
    <button
      type="button"
      className={DANGER_ACTION_CLASS[place]}
      aria-label={texts.deleteFile(filename)}
      title={texts.delete}
      disabled={busy}
      onClick={() => onDelete(filename)}
    >
      <TrashIcon />
      {place === 'tile' && <span className="tile-action-text">{texts.delete}</span>}
    </button>
  );
}
