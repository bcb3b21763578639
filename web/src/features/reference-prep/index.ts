// References that cannot work (issue 27, part 5): the check of the chosen reference with its
// warnings, and the preparation step (crop, four-corner perspective, lighting removal).
export { ReferenceAdvice } from './reference-advice';
export type { ReferenceAdviceProps } from './reference-advice';
