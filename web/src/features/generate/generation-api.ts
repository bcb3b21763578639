import { fetchPreviewStatus, postPreviewJob } from '../../lib/api/generation';
import { loadAllLdImages } from '../../lib/api/images';
import type { RequestClient } from '../../lib/messaging';
import type { GenerationFlowApi } from './generation-flow';

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
