// Generate: the LD generation form, and the links that open it with a reference or a remix.
export { GenerateScreen } from './generate-screen';
export type { GenerateScreenProps } from './generate-screen';
export { generateWithReference } from './reference-link';
export type { RemixState } from './reference-link';
