import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_PIXELS } from './constants.js';
import {
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  fileExtension,
  validateUploadFile,
  validateUploadPixels,
} from './upload.js';

const FORMAT = 'Formato no admitido. Usa: png, jpg, jpeg, bmp, gif o webp.';
const TOO_LARGE = 'El archivo supera el tamaño máximo permitido (25 MB).';
const UNREADABLE = 'No se han podido leer las dimensiones de la imagen.';

describe('upload file checks', () => {
  it('[U1] accepts png, jpg, jpeg, bmp, gif and webp, in any case', () => {
    expect(UPLOAD_EXTENSIONS).toEqual(['png', 'jpg', 'jpeg', 'bmp', 'gif', 'webp']);
    for (const name of ['a.png', 'a.jpg', 'a.jpeg', 'a.bmp', 'a.gif', 'a.webp', 'PHOTO.JPG']) {
      expect(validateUploadFile({ name, size: 1 }), name).toBeUndefined();
    }
  });

  it('[U1] refuses any other extension', () => {
    for (const name of ['a.tiff', 'a.svg', 'png', 'a.png.exe', 'a.', '']) {
      expect(validateUploadFile({ name, size: 1 }), name).toBe(FORMAT);
    }
    expect(fileExtension('archive.tar.GZ')).toBe('gz');
  });

  it('[U2] accepts 26214400 bytes and refuses 26214401', () => {
    expect(UPLOAD_MAX_BYTES).toBe(26_214_400);
    expect(validateUploadFile({ name: 'a.png', size: 26_214_400 })).toBeUndefined();
    expect(validateUploadFile({ name: 'a.png', size: 26_214_401 })).toBe(TOO_LARGE);
    expect(validateUploadFile({ name: 'a.png', size: Number.NaN })).toBe(TOO_LARGE);
  });

  it('[U1] [U2] checks the extension before the size', () => {
    expect(validateUploadFile({ name: 'a.tiff', size: 26_214_401 })).toBe(FORMAT);
  });
});

describe('upload pixel checks', () => {
  it('[U3] accepts 17,000,000 pixels and refuses 17,000,001', () => {
    expect(UPLOAD_MAX_PIXELS).toBe(17_000_000);
    expect(validateUploadPixels(4250, 4000)).toBeUndefined();
    expect(validateUploadPixels(17_000_001, 1)).toBe(
      'La imagen (17000001x1, 17.000001 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
  });

  it('[U3] fills in the real width, height and megapixels', () => {
    expect(validateUploadPixels(5000, 4000)).toBe(
      'La imagen (5000x4000, 20.00 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
    expect(validateUploadPixels(4097, 4150)).toBe(
      'La imagen (4097x4150, 17.003 MP) supera el máximo permitido: 17.00 MP (~4096×4096).',
    );
  });

  it('[U4] reports unreadable dimensions', () => {
    expect(validateUploadPixels(0, 100)).toBe(UNREADABLE);
    expect(validateUploadPixels(100, -1)).toBe(UNREADABLE);
    expect(validateUploadPixels(Number.NaN, 100)).toBe(UNREADABLE);
    expect(validateUploadPixels(100, Number.POSITIVE_INFINITY)).toBe(UNREADABLE);
  });
});
