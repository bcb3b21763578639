// Upscale: the HD queue, its order, pause and cancel.
export { UpscaleScreen } from './upscale-screen';
