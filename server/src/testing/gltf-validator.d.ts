// Types of the Khronos glTF Validator's npm package (compiled from Dart; it ships none): the
// parts the material package's tests read.
declare module 'gltf-validator' {
  export interface ValidationMessage {
    code: string;
    message: string;
    severity: number;
    pointer?: string;
  }
  export interface ValidationReport {
    validatorVersion: string;
    mimeType: string;
    issues: {
      numErrors: number;
      numWarnings: number;
      numInfos: number;
      numHints: number;
      messages: ValidationMessage[];
      truncated: boolean;
    };
    info?: {
      version: string;
      generator?: string;
      extensionsUsed?: string[];
      resources?: {
        pointer: string;
        mimeType?: string;
        image?: { width: number; height: number };
      }[];
      drawCallCount?: number;
      totalVertexCount?: number;
      totalTriangleCount?: number;
      materialCount?: number;
    };
  }
  export function validateBytes(
    data: Uint8Array,
    options?: {
      uri?: string;
      maxIssues?: number;
      writeTimestamp?: boolean;
      format?: 'glb' | 'gltf';
    },
  ): Promise<ValidationReport>;
  export function version(): string;
}
