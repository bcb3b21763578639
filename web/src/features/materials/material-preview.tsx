import { TEXT_BUNDLES } from '@tessera/contract';
import { useEffect, useRef, useState } from 'react';
import {
  AmbientLight,
  DirectionalLight,
  Mesh,
  MeshStandardMaterial,
  PlaneGeometry,
  RepeatWrapping,
  SphereGeometry,
  SRGBColorSpace,
  TextureLoader,
  type Texture,
} from 'three';
import { useTexts } from '../../lib/i18n';
import { startThreeView, type ThreeView, type ThreeViewState } from '../../lib/three/three-view';

export interface MaterialPreviewProps {
  /** URLs of the previews: the image and its maps (OpenGL normals, as three.js reads them). */
  colour: string;
  normal: string;
  roughness: string;
  occlusion: string;
  height: string;
  /**
   * The height's strength the maps were made with (issue 26, part 4). The normal and occlusion
   * maps carry it already; the height map does not (a displacement scales it), so only the
   * sphere's displacement is scaled by it here.
   */
  strength: number;
}

const LENS = { fov: 40, near: 0.1, far: 50 };

/** Each texture repeats this many times across the plane and around the sphere: it tiles. */
const REPEAT = 2;

/** How far the sphere's surface moves from the height map's black to its white, at strength 1. */
const DISPLACEMENT = 0.06;

/**
 * The material lit on a plane and a sphere, each tiled; dragging rotates the view, the wheel
 * zooms. Renders on demand (after the textures load and while the view moves), not every frame.
 */
export default function MaterialPreview(props: MaterialPreviewProps) {
  const T = useTexts(TEXT_BUNDLES.materialMaps);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<ThreeViewState>('loading');
  const { colour, normal, roughness, occlusion, height, strength } = props;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    return startThreeView(canvas, LENS, fillScene, () => setState('unavailable'));

    function fillScene({ scene, camera, controls, render }: ThreeView) {
      camera.position.set(0, 0.5, 3.4);
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
      sphereMaterial.displacementScale = DISPLACEMENT * strength;
      sphereMaterial.displacementBias = (-DISPLACEMENT / 2) * strength;

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
      const draw = () => {
        loaded++;
        render();
        if (loaded >= total) setState('drawn');
      };

      return () => {
        for (const texture of textures) texture.dispose();
        material.dispose();
        sphereMaterial.dispose();
        planeGeometry.dispose();
        sphereGeometry.dispose();
      };
    }
  }, [colour, normal, roughness, occlusion, height, strength]);

  return (
    <figure className="material-preview">
      <canvas
        ref={canvasRef}
        role="img"
        className="material-preview-canvas"
        aria-label={T.preview}
        data-state={state}
      />
      <figcaption className="material-preview-note">
        {state === 'unavailable' ? T.previewUnavailable : T.previewHint}
      </figcaption>
    </figure>
  );
}
