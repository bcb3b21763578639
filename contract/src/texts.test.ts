import { describe, expect, it } from 'vitest';
import { CONNECTION_ERROR_TEXTS, TEXTS, isConnectionErrorText } from './texts.js';

// Each expected text is copied from SPEC.md, so a drift from the spec's wording fails here.
describe('user-facing texts, verbatim from the spec', () => {
  it("[L4] network failure on login: 'Login failed'", () => {
    expect(TEXTS.loginFailed).toBe('Login failed');
  });

  it('[D10] [D11] gallery empty and error states', () => {
    expect(TEXTS.noImagesFound).toBe('No se han encontrado imágenes.');
    expect(TEXTS.imageListError).toBe('Error al obtener la lista de imágenes.');
  });

  it("[D2] the Refresh button reads 'Refreshing...' while busy", () => {
    expect(TEXTS.refreshing).toBe('Refreshing...');
  });

  it('[G16] [G17] generation messages', () => {
    expect(TEXTS.generationError).toBe('Error en la generación de imágenes.');
    expect(TEXTS.metadataError).toBe('Error obtaining metadata.');
    expect(TEXTS.latestImageError).toBe('Error fetching the latest image. Please try again.');
    expect(TEXTS.generateStatusError).toBe('Error obtaining generate image status.');
    expect(TEXTS.generatedImageLoadError).toBe('Error loading the generated image.');
  });

  it('[G4] [M4] [M5] busy button labels and the download link', () => {
    expect(TEXTS.generatingButton(42)).toBe('Generating... (42%)');
    expect(TEXTS.generatingHdButton(7)).toBe('Generating HD... (7%)');
    expect(TEXTS.downloadHdImage).toBe('Download HD Image');
  });

  it("[M6] HD without a valid size: 'Debe seleccionar una opción válida.'", () => {
    expect(TEXTS.hdSizeRequired).toBe('Debe seleccionar una opción válida.');
  });

  it('[H4] [H9] HD toasts', () => {
    expect(TEXTS.hdErrorToast('stone.png')).toBe(
      'Error generating HD image for stone.png. Retrying...',
    );
    expect(TEXTS.hdQueuedToast('stone.png')).toBe(
      'HD image generation for stone.png added to queue.',
    );
    expect(TEXTS.hdInProgressToast(35, 2)).toBe('Generating HD... (35%) (Queued: 2)');
    expect(TEXTS.hdFinishedToast('stone.png')).toBe('HD image generation for stone.png finished.');
  });

  it("[H10] unrecognised status: 'Unknown status message.'", () => {
    expect(TEXTS.unknownStatus).toBe('Unknown status message.');
  });

  it("[Q6] request without answer: 'Response timed out'", () => {
    expect(TEXTS.responseTimedOut).toBe('Response timed out');
  });

  it('[T9] [T10] tag name messages', () => {
    expect(TEXTS.tagInvalidCharacters).toBe(
      'Use only standard characters (no emojis or special symbols)',
    );
    expect(TEXTS.tagDuplicate('Stone')).toBe("A tag with the name 'Stone' already exists");
    expect(TEXTS.tagNameRequired).toBe('El nombre de la etiqueta es obligatorio');
    expect(TEXTS.tagNameTooLong(15)).toBe(
      'El nombre de la etiqueta admite como máximo 15 caracteres',
    );
  });

  it('[U1] [U2] [U3] [U4] upload messages', () => {
    expect(TEXTS.uploadFormat).toBe('Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.');
    expect(TEXTS.uploadTooLarge).toBe('El archivo supera el tamaño máximo permitido (25 MB).');
    expect(TEXTS.uploadPixels(5000, 4000)).toBe(
      'La imagen (5000x4000, 20.00 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
    expect(TEXTS.uploadUnreadable).toBe('No se han podido leer las dimensiones de la imagen.');
  });

  it('an area just over the limit shows enough decimals to differ from 17.00 MP', () => {
    expect(TEXTS.uploadPixels(4251, 4000)).toBe(
      'La imagen (4251x4000, 17.004 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
  });

  it('[Q8] connection problems', () => {
    expect(CONNECTION_ERROR_TEXTS).toEqual([
      'connack timeout',
      'keepalive timeout',
      'client disconnecting',
      'Connection closed',
      'No connection to broker',
      'Invalid topic',
    ]);
    expect(isConnectionErrorText('keepalive timeout')).toBe(true);
    expect(isConnectionErrorText('Keepalive timeout')).toBe(false);
  });
});
