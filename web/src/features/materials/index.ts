// PBR material maps of an image (issue 17, part 5): order, download, and a 3D preview.
export { MaterialMapsSection } from './material-maps-section';
export type { MaterialMapsSectionProps } from './material-maps-section';
