// The part every 3D view shares: a renderer on a canvas, a camera turned by dragging, rendering on
// demand. Import this only from a module that is itself loaded lazily: three.js comes with it.
import { PerspectiveCamera, Scene, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

/** How far a 3D view has come; its canvas shows it as data-state. */
export type ThreeViewState = 'loading' | 'drawn' | 'unavailable';

/** The 3D views' background (the canvas's CSS background), so the first frame matches it. */
const BACKGROUND = 0x1d1f24;

export interface ThreeView {
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** Renders once, sized to the canvas as it is now. */
  render: () => void;
}

export interface Lens {
  fov: number;
  near: number;
  far: number;
}

/**
 * Starts a view on the canvas: `fill` places the camera and adds what the scene shows, and returns
 * what frees it. The view renders when the camera moves or the canvas changes size, and once now.
 * Without WebGL, `onUnavailable` is called (a moment later, not during the effect).
 * Returns what stops the view and frees all of it.
 */
export function startThreeView(
  canvas: HTMLCanvasElement,
  lens: Lens,
  fill: (view: ThreeView) => () => void,
  onUnavailable: () => void,
): () => void {
  let renderer: WebGLRenderer;
  try {
    // The drawing stays readable after it is shown: the browser tests check it drew.
    renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch {
    // No WebGL (turned off, or no GPU path): the view says so instead.
    queueMicrotask(onUnavailable);
    return () => undefined;
  }
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setClearColor(BACKGROUND);
  const scene = new Scene();
  const camera = new PerspectiveCamera(lens.fov, 1, lens.near, lens.far);
  const controls = new OrbitControls(camera, canvas);
  const render = () => {
    const { clientWidth, clientHeight } = canvas;
    if (clientWidth > 0 && clientHeight > 0) {
      renderer.setSize(clientWidth, clientHeight, false);
      camera.aspect = clientWidth / clientHeight;
      camera.updateProjectionMatrix();
    }
    renderer.render(scene, camera);
  };
  const free = fill({ renderer, scene, camera, controls, render });
  controls.addEventListener('change', render);
  const resize = new ResizeObserver(render);
  resize.observe(canvas);
  render();

  return () => {
    resize.disconnect();
    controls.dispose();
    free();
    renderer.dispose();
  };
}
