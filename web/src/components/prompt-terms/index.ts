export { TermChips } from './term-chips';
export type { TermChipsProps } from './term-chips';
