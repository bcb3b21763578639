// Input: the reference images the user uploaded, and the LD images made from each.
export { InputScreen } from './input-screen';
