import type { GenerationStatusResponse, LdImage, PreviewRequestFields } from '@tessera/contract';
import type { RequestClient } from '../messaging';
import { fetchPreviewStatus, postPreviewJob } from './generation';
import { loadAllLdImages } from './images';

// The Generate flow (features/generate/generation-flow.ts) is free of React and of the network:
// this is the port it calls, and its binding to the real server.

/** What the flow needs of the server. */
export interface GenerationFlowApi {
  /** The user's latest preview job (GET .../status-generate-image/preview); null when none yet. */
  previewStatus(): Promise<GenerationStatusResponse | null>;
  /** Posts one preview job (multipart); rejects unless the server accepted it. */
  postPreview(fields: PreviewRequestFields, reference: File): Promise<void>;
  /** refresh-low-definition over messaging. */
  refreshLowDefinition(): Promise<void>;
  /** The whole LD list, in pages of IMAGE_PAGE_SIZE. */
  listLowDefinition(): Promise<LdImage[]>;
  /** assign-tag {id, filename}. */
  assignTag(tagId: string, filename: string): Promise<void>;
}

/** The flow's calls on the real server: HTTP for the preview job, messaging for the rest. */
export function createGenerationApi(client: RequestClient): GenerationFlowApi {
  return {
    previewStatus: () => fetchPreviewStatus(),
    postPreview: (fields, reference) => postPreviewJob(fields, reference),
    refreshLowDefinition: async () => {
      await client.request('refresh-low-definition', {});
    },
    listLowDefinition: () => loadAllLdImages(client),
    assignTag: async (tagId, filename) => {
      await client.request('assign-tag', { id: tagId, filename });
    },
  };
}
