import { printFileUrl, TEXT_BUNDLES, type PrintFile, type PrintProfile } from '@tessera/contract';
import { DownloadIcon } from '../../../components/icons';
import { useTexts } from '../../../lib/i18n';
import { usePrintFiles, usePrintProfiles } from './print-queries';

/**
 * The print files made of an HD image (issue 26): each with its settings and pixels, its
 * progress while it is made, why it failed, or its download. Nothing while there are none.
 */
export function PrintFilesList({ image }: { image: string }) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const files = usePrintFiles(image).data ?? [];
  const { profiles } = usePrintProfiles();
  if (files.length === 0) return null;
  return (
    <section className="print-files" aria-label={PRINT_TEXTS.files}>
      <h3 className="hd-details-heading">{PRINT_TEXTS.files}</h3>
      <ul className="print-files-list">
        {files.map((file) => (
          <PrintFileRow key={file.id} file={file} profiles={profiles} />
        ))}
      </ul>
    </section>
  );
}

function PrintFileRow({ file, profiles }: { file: PrintFile; profiles: readonly PrintProfile[] }) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const profile = profiles.find((candidate) => candidate.id === file.settings.profile);
  const profileName = profile ? PRINT_TEXTS.profileOption(profile) : file.settings.profile;
  return (
    <li className="print-file">
      <span className="print-file-settings">
        {PRINT_TEXTS.settingsSummary(file.settings, profileName)}
      </span>
      <span className="print-file-pixels">{PRINT_TEXTS.pixelSize(file.width, file.height)}</span>
      <PrintFileState file={file} />
    </li>
  );
}

function PrintFileState({ file }: { file: PrintFile }) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  switch (file.status) {
    case 'queued':
    case 'in_progress':
      return (
        <span className="print-file-state">
          <progress
            className="print-file-progress"
            aria-label={PRINT_TEXTS.progress}
            max={100}
            value={file.percent}
          />
          {file.status === 'queued' ? PRINT_TEXTS.queued : PRINT_TEXTS.making(file.percent)}
        </span>
      );
    case 'finished':
      return file.filename === undefined ? null : (
        <a
          className="button button-small"
          href={printFileUrl(file.filename)}
          download={file.filename}
        >
          <DownloadIcon />
          {file.bytes === undefined ? PRINT_TEXTS.download : PRINT_TEXTS.downloadSize(file.bytes)}
        </a>
      );
    case 'error':
      return (
        <span className="print-file-error" role="alert">
          {file.error ?? PRINT_TEXTS.failed}
        </span>
      );
    case 'cancelled':
      return <span className="print-file-state">{PRINT_TEXTS.cancelled}</span>;
  }
}
