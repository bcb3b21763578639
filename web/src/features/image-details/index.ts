// Image details: the LD Image Details modal (SPEC §2; M1–M7) with its HD order and "Use these
// settings", and the router state that carries a remix to Generate.
export { LdImageDetailsModal } from './ld-image-details-modal';
export type { LdImageDetailsModalProps } from './ld-image-details-modal';
export { remixOf } from './remix';
export type { RemixState } from './remix';
