import { formatFileSize, ZIP_TEXTS, ZIP_TEXTS_EN } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import { percentOf, viewOfProgress, zipStatusText } from './zip-progress';

describe('what the ZIP download status shows', () => {
  it('follows the server: waiting, sending with its size, sent, failed', () => {
    expect(viewOfProgress(3, { state: 'waiting', sent: 0 })).toEqual({
      phase: 'preparing',
      files: 3,
    });
    expect(viewOfProgress(3, { state: 'sending', sent: 10, total: 40 })).toEqual({
      phase: 'downloading',
      files: 3,
      sent: 10,
      total: 40,
    });
    expect(viewOfProgress(3, { state: 'sent', sent: 40, total: 40 })).toEqual({
      phase: 'done',
      files: 3,
      total: 40,
    });
    expect(
      viewOfProgress(3, { state: 'failed', sent: 5, total: 40, error: 'The download stopped' }),
    ).toEqual({ phase: 'failed', error: 'The download stopped' });
  });

  it('reads as a person would: percent and megabytes, one image or several', () => {
    const mb = 1024 * 1024;
    const es = (view: Parameters<typeof zipStatusText>[0]) => zipStatusText(view, ZIP_TEXTS);
    expect(es({ phase: 'preparing', files: 1 })).toBe('Preparando el ZIP de 1 imagen…');
    expect(es({ phase: 'downloading', files: 4, sent: 45.4 * mb, total: 100 * mb })).toBe(
      'Descargando… 45 % (45,4 MB de 100,0 MB)',
    );
    // A size not known yet: the bytes so far.
    expect(es({ phase: 'downloading', files: 4, sent: 300 * 1024, total: undefined })).toBe(
      'Descargando… 300 kB',
    );
    expect(es({ phase: 'done', files: 4, total: 12.7 * mb })).toBe(
      'ZIP enviado: 4 imágenes, 12,7 MB. Tu navegador lo guarda.',
    );
    expect(es({ phase: 'failed', error: 'No such image: a.png' })).toBe(
      'Ha fallado la descarga del ZIP: No such image: a.png',
    );
    expect(es({ phase: 'failed', error: undefined })).toBe(
      'Ha fallado la descarga del ZIP: El servidor ya no conoce esta descarga',
    );
  });

  it('in English too', () => {
    const mb = 1024 * 1024;
    const en = (view: Parameters<typeof zipStatusText>[0]) => zipStatusText(view, ZIP_TEXTS_EN);
    expect(en({ phase: 'preparing', files: 1 })).toBe('Preparing ZIP of 1 image…');
    expect(en({ phase: 'downloading', files: 4, sent: 45.4 * mb, total: 100 * mb })).toBe(
      'Downloading… 45 % (45.4 MB of 100.0 MB)',
    );
    expect(en({ phase: 'done', files: 4, total: 12.7 * mb })).toBe(
      'ZIP sent: 4 images, 12.7 MB. Your browser saves it.',
    );
    expect(en({ phase: 'failed', error: 'No such image: a.png' })).toBe(
      'ZIP download failed: No such image: a.png',
    );
  });

  it('never says 100 % before the end, nor divides by nothing', () => {
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(99);
    expect(percentOf(0, 0)).toBe(0);
    expect(formatFileSize(10, 'es')).toBe('1 kB');
  });
});
