/**
 * The pixel size of an image file as the browser reads it, or undefined when it cannot. An <img>
 * knows its natural size once the header is read (Chromium decodes pixels only to paint), so
 * this is a header read, as on the server, and a huge image costs no decode.
 */
export function readImageSize(file: Blob): Promise<{ width: number; height: number } | undefined> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    const done = (size: { width: number; height: number } | undefined) => {
      image.onload = null;
      image.onerror = null;
      URL.revokeObjectURL(url);
      resolve(size);
    };
    image.onload = () => done({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => done(undefined);
    image.src = url;
  });
}
