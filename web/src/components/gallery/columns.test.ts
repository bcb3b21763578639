import { describe, expect, it } from 'vitest';
import { columnCountForWidth } from './columns';

describe('grid columns by window width', () => {
  it.each([
    [1920, 5],
    [1100, 5],
    [1099, 3],
    [700, 3],
    [699, 2],
    [500, 2],
    [499, 1],
    [320, 1],
  ])('[D5] %i px wide gives %i columns', (width, columns) => {
    expect(columnCountForWidth(width)).toBe(columns);
  });
});
