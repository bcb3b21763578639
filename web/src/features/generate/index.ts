// Generate: the LD generation form, and the link that opens it with a reference (a remix comes
// through the router state of features/image-details).
export { GenerateScreen } from './generate-screen';
export type { GenerateScreenProps } from './generate-screen';
export { generateWithReference } from './reference-link';
