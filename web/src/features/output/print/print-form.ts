import {
  PRINT_DEFAULT_SETTINGS,
  printSettingsSchema,
  type PrintBitDepth,
  type PrintCompression,
  type PrintSettings,
} from '@tessera/contract';

/** The dialog's fields as typed: numbers stay text until they are read, so a slip can be shown. */
export interface PrintForm {
  dpi: string;
  bleedMm: string;
  compression: PrintCompression;
  bitDepth: PrintBitDepth;
  profile: string;
}

export const INITIAL_PRINT_FORM: PrintForm = {
  dpi: String(PRINT_DEFAULT_SETTINGS.dpi),
  bleedMm: String(PRINT_DEFAULT_SETTINGS.bleedMm),
  compression: PRINT_DEFAULT_SETTINGS.compression,
  bitDepth: PRINT_DEFAULT_SETTINGS.bitDepth,
  profile: PRINT_DEFAULT_SETTINGS.profile,
};

/** The form read: the settings when every field is valid, and the text for each field that is not. */
export interface ReadPrintForm {
  settings?: PrintSettings;
  dpiError?: string;
  bleedError?: string;
}

/** A typed number, or NaN for an empty or non-numeric field (which the schema then refuses). */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/**
 * Checks the fields by the contract's own schema, so the dialog refuses what the server would;
 * says why in the language of `texts`.
 */
export function readPrintForm(
  form: PrintForm,
  texts: { dpiInvalid: string; bleedInvalid: string },
): ReadPrintForm {
  const dpi = printSettingsSchema.shape.dpi.safeParse(numberOf(form.dpi));
  const bleedMm = printSettingsSchema.shape.bleedMm.safeParse(numberOf(form.bleedMm));
  if (!dpi.success || !bleedMm.success) {
    return {
      ...(!dpi.success && { dpiError: texts.dpiInvalid }),
      ...(!bleedMm.success && { bleedError: texts.bleedInvalid }),
    };
  }
  return {
    settings: {
      dpi: dpi.data,
      bleedMm: bleedMm.data,
      compression: form.compression,
      bitDepth: form.bitDepth,
      profile: form.profile,
    },
  };
}
