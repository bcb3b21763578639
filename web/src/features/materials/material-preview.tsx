import { useEffect, useRef, useState } from 'react';
import {
  AmbientLight,
  DirectionalLight,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  RepeatWrapping,
  Scene,
  SphereGeometry,
  SRGBColorSpace,
  TextureLoader,
  WebGLRenderer,
  type Texture,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export interface MaterialPreviewProps {
  /** URLs of the previews: the image and its maps (OpenGL normals, as three.js reads them). */
  colour: string;
  normal: string;
  roughness: string;
  occlusion: string;
  height: string;
}

/** The canvas's background (materials.css), so the first frame matches the page's dark box. */
const BACKGROUND = 0x1d1f24;

/** Each texture repeats this many times across the plane and around the sphere: it tiles. */
const REPEAT = 2;

/**
 * The material lit on a plane and a sphere, each tiled; dragging rotates the view, the wheel
 * zooms. Renders on demand (after the textures load and while the view moves), not every frame.
 */
export default function MaterialPreview(props: MaterialPreviewProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'unavailable'>('loading');
  const { colour, normal, roughness, occlusion, height } = props;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let renderer: WebGLRenderer;
    try {
      // The drawing stays readable after it is shown: the browser test checks it drew.
      renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    } catch {
      // No WebGL (turned off, or no GPU path): said in the caption instead.
      queueMicrotask(() => setState('unavailable'));
      return;
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setClearColor(BACKGROUND);
    const scene = new Scene();
    const camera = new PerspectiveCamera(40, 1, 0.1, 50);
    camera.position.set(0, 0.5, 3.4);
    const controls = new OrbitControls(camera, canvas);
    controls.enableDamping = false;
    controls.minDistance = 1.5;
    controls.maxDistance = 10;

    scene.add(new AmbientLight(0xffffff, 0.35));
    const sun = new DirectionalLight(0xffffff, 2.4);
    sun.position.set(3, 4, 5);
    scene.add(sun);

    const loader = new TextureLoader();
    const textures: Texture[] = [];
    const load = (url: string, isColour = false) => {
      const texture = loader.load(url, () => draw());
      texture.wrapS = RepeatWrapping;
      texture.wrapT = RepeatWrapping;
      texture.repeat.set(REPEAT, REPEAT);
      if (isColour) texture.colorSpace = SRGBColorSpace;
      textures.push(texture);
      return texture;
    };
    const material = new MeshStandardMaterial({
      map: load(colour, true),
      normalMap: load(normal),
      roughnessMap: load(roughness),
      aoMap: load(occlusion),
      metalness: 0,
    });
    // The sphere is displaced a little by the height map, so relief shows on its outline too.
    const sphereMaterial = material.clone();
    sphereMaterial.displacementMap = load(height);
    sphereMaterial.displacementScale = 0.06;
    sphereMaterial.displacementBias = -0.03;

    const planeGeometry = new PlaneGeometry(1.8, 1.8, 1, 1);
    const plane = new Mesh(planeGeometry, material);
    plane.position.set(-1.05, 0, 0);
    plane.rotation.x = -0.35;
    const sphereGeometry = new SphereGeometry(0.85, 128, 96);
    const sphere = new Mesh(sphereGeometry, sphereMaterial);
    sphere.position.set(1.05, 0, 0);
    scene.add(plane, sphere);

    let loaded = 0;
    const total = textures.length;
    const render = () => {
      const { clientWidth, clientHeight } = canvas;
      if (clientWidth > 0 && clientHeight > 0) {
        renderer.setSize(clientWidth, clientHeight, false);
        camera.aspect = clientWidth / clientHeight;
        camera.updateProjectionMatrix();
      }
      renderer.render(scene, camera);
    };
    const draw = () => {
      loaded++;
      render();
      if (loaded >= total) setState('drawn');
    };
    controls.addEventListener('change', render);
    const resize = new ResizeObserver(render);
    resize.observe(canvas);
    render();

    return () => {
      resize.disconnect();
      controls.dispose();
      for (const texture of textures) texture.dispose();
      material.dispose();
      sphereMaterial.dispose();
      planeGeometry.dispose();
      sphereGeometry.dispose();
      renderer.dispose();
    };
  }, [colour, normal, roughness, occlusion, height]);

  return (
    <figure className="material-preview">
      <canvas
        ref={canvasRef}
        role="img"
        className="material-preview-canvas"
        aria-label="3D preview of the material"
        data-state={state}
      />
      <figcaption className="material-preview-note">
        {state === 'unavailable'
          ? '3D preview unavailable: this browser has WebGL turned off'
          : 'Drag to rotate, scroll to zoom'}
      </figcaption>
    </figure>
  );
}
