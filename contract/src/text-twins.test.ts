import { describe, expect, it } from 'vitest';
import { textLeaves, twinFinder } from './text-twins.js';

const SPANISH = {
  saved: 'Guardado',
  nested: { gone: (image: string) => `La imagen '${image}' ya no existe` },
  waiting: (count: number, image: string) => `Hay ${count} pedidos de ${image} esperando`,
  plural: (files: number) =>
    `${files} ${files === 1 ? 'archivo eliminado' : 'archivos eliminados'}`,
  tooShort: (page: number) => `Página ${page}`,
  together: (a: string, b: string) => `Los nombres ${a}${b} van juntos`,
  formatted: (bytes: number) => `Ocupa ${(bytes / 1000).toFixed(1)} KB de tu cuota`,
};
const ENGLISH = {
  saved: 'Saved',
  nested: { gone: (image: string) => `The image '${image}' no longer exists` },
  waiting: (count: number, image: string) => `${image} has ${count} orders waiting`,
  plural: (files: number) => `${files} ${files === 1 ? 'file removed' : 'files removed'}`,
  tooShort: (page: number) => `Page ${page}`,
  together: (a: string, b: string) => `The names ${a}${b} go together`,
  formatted: (bytes: number) => `Takes ${(bytes / 1000).toFixed(1)} KB of your quota`,
};

const english = twinFinder([[SPANISH, ENGLISH]]);

describe('the twin of a text', () => {
  it('lists the texts of an object at any depth, by path', () => {
    expect(textLeaves(SPANISH).map(([path]) => path)).toContain('nested.gone');
  });

  it('is found as it is for a fixed text', () => {
    expect(english('Guardado')).toBe('Saved');
    expect(english('Guardado.')).toBeUndefined();
  });

  it('is written with the same values for a text that names values, in the order they go', () => {
    expect(english("La imagen 'roble.png' ya no existe")).toBe(
      "The image 'roble.png' no longer exists",
    );
    expect(english('Hay 3 pedidos de roble.png esperando')).toBe('roble.png has 3 orders waiting');
  });

  it('gets numbers back as numbers, and other values as written', () => {
    expect(english('1 archivos eliminados')).toBe('1 file removed');
    expect(english("La imagen '007' ya no existe")).toBe("The image '007' no longer exists");
  });

  it('is not looked for by patterns that could be read two ways or match too much', () => {
    expect(english('Página 2')).toBeUndefined();
    expect(english('Los nombres ab van juntos')).toBeUndefined();
    expect(english('Ocupa 1.5 KB de tu cuota')).toBeUndefined();
  });

  it('takes shorter patterns when asked to', () => {
    expect(twinFinder([[SPANISH, ENGLISH]], 5)('Página 2')).toBe('Page 2');
  });
});
