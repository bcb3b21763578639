// A gallery selection as one ZIP download (issue 13, feature 10).
export { DownloadZipButton, ZipDownloadStatus, ZipSelectionTools } from './zip-download';
export { useZipDownload } from './use-zip-download';
export type { ZipDownload } from './use-zip-download';
