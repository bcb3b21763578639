// The laying preview (issue 25, part 5): an LD image or its series laid as a floor at true
// scale, in a chosen pattern, flat and in a lit 3D room, and exported as a PNG.
export { LayingPreviewButton } from './laying-preview-button';
export { LayingPreviewDialog } from './laying-preview-dialog';
export type { LayingPreviewDialogProps } from './laying-preview-dialog';
