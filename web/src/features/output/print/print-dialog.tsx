import { TEXT_BUNDLES, type HdImage } from '@tessera/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '../../../components/gallery/dialog';
import { useTexts } from '../../../lib/i18n';
import { orderPrintFile } from '../../../lib/api/print';
import { DetailSection } from '../detail-section';
import type { HdGeometry } from '../hd-geometry';
import { INITIAL_PRINT_FORM, readPrintForm, type PrintForm } from './print-form';
import { PrintFilesList } from './print-files-list';
import { addOrderedPrintFile, usePrintEstimate, usePrintProfiles } from './print-queries';
import { PrintSettingsFields } from './print-settings-fields';
import { PrintSizeSummary } from './print-size-summary';

export interface PrintDialogProps {
  image: HdImage;
  geometry: HdGeometry;
  onClose: () => void;
}

/**
 * "Download for print" (issue 26, part 1): the settings of a print TIFF, what the file will be
 * before it is ordered, "Make print file", and the image's print files as they are made.
 */
export function PrintDialog({ image, geometry, onClose }: PrintDialogProps) {
  const PRINT_TEXTS = useTexts(TEXT_BUNDLES.print);
  const queryClient = useQueryClient();
  const [form, setForm] = useState<PrintForm>(INITIAL_PRINT_FORM);
  const [ordering, setOrdering] = useState(false);
  const [orderError, setOrderError] = useState<string>();
  const { profiles, failed: profilesFailed } = usePrintProfiles();
  const read = readPrintForm(form, PRINT_TEXTS);
  const { settings } = read;
  const order = settings && { ...settings, image: image.filename };
  const estimate = usePrintEstimate(order);
  const profile = profiles.find((candidate) => candidate.id === form.profile);

  function change(update: Partial<PrintForm>) {
    setOrderError(undefined);
    setForm((previous) => ({ ...previous, ...update }));
  }

  function makePrintFile() {
    if (!order) return;
    setOrdering(true);
    setOrderError(undefined);
    orderPrintFile(order)
      .then((file) => addOrderedPrintFile(queryClient, file))
      .catch((error: unknown) =>
        setOrderError(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setOrdering(false));
  }

  return (
    <Dialog title={PRINT_TEXTS.title} onClose={onClose} className="print-dialog">
      <PrintSettingsFields
        form={form}
        read={read}
        profiles={profiles}
        profilesFailed={profilesFailed}
        onChange={change}
      />
      {settings && (
        <>
          <PrintSizeSummary
            geometry={geometry}
            settings={settings}
            profile={profile}
            estimate={estimate}
          />
          <DetailSection geometry={geometry} printDpi={settings.dpi} />
        </>
      )}
      {orderError !== undefined && (
        <p className="field-error" role="alert">
          {orderError}
        </p>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!order || ordering}
          onClick={makePrintFile}
        >
          {ordering ? PRINT_TEXTS.ordering : PRINT_TEXTS.order}
        </button>
      </div>
      <PrintFilesList image={image.filename} />
    </Dialog>
  );
}
