// The page of the material-package browser test (bundled by material-viewer-page.ts): draws a
// package's `.glb` with three.js's GLTFLoader, or its `.mtlx` with MaterialXLoader on the
// tile of the `.glb`'s size, through WebGPURenderer (node materials; WebGL 2 where WebGPU is missing).
import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  Mesh,
  type Object3D,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MaterialXLoader } from 'three/addons/loaders/MaterialXLoader.js';

/** What the page tells the test once a frame is drawn. */
export interface ViewerResult {
  /** Which backend drew: 'WebGPU', or 'WebGL2' (three's fallback). */
  backend: string;
  /** The tile's size as three.js measured it, in metres. */
  size: [number, number, number];
  /** The drawn material's type and name: the glTF's, or the MaterialX document's. */
  material: string;
  /** The MaterialX loader's warnings (the `.glb` has none). */
  warnings: string[];
}

declare global {
  interface Window {
    /**
     * Draws `<name>.glb`, or `<name>.mtlx` on its tile, into the canvas; a frame is shown. The
     * tile faces the camera, or leans back by `tilt` radians under a raking light (its relief).
     */
    showMaterial(name: string, which: 'glb' | 'mtlx', tilt?: number): Promise<ViewerResult>;
  }
}

window.showMaterial = async (name, which, tilt = 0) => {
  const canvas = document.querySelector('canvas');
  if (!canvas) throw new Error('The page has no canvas');
  const renderer = new WebGPURenderer({ canvas, antialias: false });
  await renderer.init();
  const scene = new Scene();
  scene.background = new Color(0x000000);
  scene.add(new AmbientLight(0xffffff, 0.6));
  const sun = new DirectionalLight(0xffffff, 2.5);
  sun.position.set(tilt ? -2 : 0.5, 0.8, tilt ? 0.6 : 2);
  scene.add(sun);

  // The tile's size is the .glb's; the .mtlx is drawn on a plane of that size whose UVs are in
  // metres with MaterialX's origin (bottom-left), as a 3D tool's world-scale UVs are.
  const gltf = await new GLTFLoader().loadAsync(`${name}.glb`);
  const size = new Box3().setFromObject(gltf.scene).getSize(new Vector3());
  let tile: Object3D = gltf.scene;
  let warnings: string[] = [];
  if (which === 'mtlx') {
    const loaded = await new MaterialXLoader().loadAsync(`${name}.mtlx`);
    const material = Object.values(loaded.materials)[0];
    if (!material) throw new Error('The MaterialX document has no material');
    const plane = new PlaneGeometry(size.x, size.y);
    const uv = plane.getAttribute('uv');
    for (let i = 0; i < uv.count; i++) uv.setXY(i, uv.getX(i) * size.x, uv.getY(i) * size.y);
    plane.computeTangents();
    tile = new Mesh(plane, material);
    warnings = loaded.warnings.map((entry) => entry.message);
  }
  tile.rotation.x = -tilt;
  scene.add(tile);

  // The tile fills most of the view, seen square on from +Z.
  const camera = new PerspectiveCamera(40, canvas.width / canvas.height, 0.01, 100);
  const fit = Math.max(size.x, size.y) / 2 / Math.tan((20 * Math.PI) / 180);
  camera.position.set(0, 0, fit * 1.15);
  camera.lookAt(0, 0, 0);
  await renderer.compileAsync(scene, camera);
  renderer.render(scene, camera);
  let drawn = '';
  tile.traverse((object) => {
    if (object instanceof Mesh && !Array.isArray(object.material)) {
      drawn = `${object.material.type} ${object.material.name}`;
    }
  });
  const backend = renderer.backend as { isWebGPUBackend?: boolean };
  return {
    backend: backend.isWebGPUBackend ? 'WebGPU' : 'WebGL2',
    size: [size.x, size.y, size.z],
    material: drawn,
    warnings,
  };
};
