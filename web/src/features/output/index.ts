// Output: the gallery of the user's HD images.
export { OutputScreen } from './output-screen';
