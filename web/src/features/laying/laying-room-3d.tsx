import { TEXT_BUNDLES } from '@tessera/contract';
import { useEffect, useRef, useState } from 'react';
import {
  AmbientLight,
  BackSide,
  BoxGeometry,
  CanvasTexture,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PlaneGeometry,
  SRGBColorSpace,
} from 'three';
import { startThreeView, type ThreeView, type ThreeViewState } from '../../lib/three/three-view';
import { useTexts } from '../../lib/i18n';

export interface LayingRoom3dProps {
  /** The plan drawn for the floor (its width is the room's width). */
  plan: HTMLCanvasElement;
  /** The same plan drawn from the faces' normal and roughness maps, when every face has them. */
  normalPlan?: HTMLCanvasElement;
  roughnessPlan?: HTMLCanvasElement;
  /** Bumped whenever the plans were drawn again. */
  revision: number;
  roomM: { width: number; depth: number };
}

const LENS = { fov: 55, near: 0.05, far: 100 };
const WALL_HEIGHT = 2.6;

/**
 * The plan as the floor of a simple lit room (walls around, no ceiling), seen from a person's
 * eye height; dragging turns the view, the wheel zooms. Renders on demand, as the material
 * preview does.
 */
export default function LayingRoom3d({
  plan,
  normalPlan,
  roughnessPlan,
  revision,
  roomM,
}: LayingRoom3dProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  /** Uploads the textures again and renders: the plans were drawn anew. */
  const redrawRef = useRef<() => void>(() => undefined);
  const [state, setState] = useState<ThreeViewState>('loading');
  const { width, depth } = roomM;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    return startThreeView(canvas, LENS, fillScene, () => setState('unavailable'));

    function fillScene({ renderer, scene, camera, controls, render }: ThreeView) {
      camera.position.set(0, 1.6, depth / 2 + 0.2);
      controls.target.set(0, 0, -depth * 0.1);
      controls.maxPolarAngle = Math.PI / 2 - 0.05;
      controls.minDistance = 0.5;
      controls.maxDistance = Math.max(width, depth) * 2;
      controls.update();

      scene.add(new AmbientLight(0xffffff, 0.25));
      scene.add(new HemisphereLight(0xfff6e8, 0x404040, 0.8));
      const sun = new DirectionalLight(0xffffff, 2);
      sun.position.set(-width, WALL_HEIGHT * 1.5, depth);
      scene.add(sun);

      const anisotropy = renderer.capabilities.getMaxAnisotropy();
      const texture = (source: HTMLCanvasElement, colour: boolean) => {
        const made = new CanvasTexture(source);
        made.anisotropy = anisotropy;
        if (colour) made.colorSpace = SRGBColorSpace;
        return made;
      };
      const colourMap = texture(plan, true);
      const normalMap = normalPlan && texture(normalPlan, false);
      const roughnessMap = roughnessPlan && texture(roughnessPlan, false);
      const textures = [colourMap, normalMap, roughnessMap].filter((t) => t !== undefined);
      const floorMaterial = new MeshStandardMaterial({
        map: colourMap,
        normalMap: normalMap ?? null,
        roughnessMap: roughnessMap ?? null,
        roughness: roughnessMap ? 1 : 0.45,
        metalness: 0,
      });
      const floorGeometry = new PlaneGeometry(width, depth);
      const floor = new Mesh(floorGeometry, floorMaterial);
      floor.rotation.x = -Math.PI / 2;
      // The walls: a box seen from inside, its floor face hidden under the tiles.
      const wallGeometry = new BoxGeometry(width, WALL_HEIGHT, depth);
      const wallMaterial = new MeshStandardMaterial({
        color: 0xe9e4dc,
        side: BackSide,
        roughness: 0.9,
      });
      const walls = new Mesh(wallGeometry, wallMaterial);
      walls.position.y = WALL_HEIGHT / 2 - 0.001;
      scene.add(walls, floor);

      redrawRef.current = () => {
        for (const made of textures) made.needsUpdate = true;
        render();
      };
      // The view renders as soon as this returns.
      queueMicrotask(() => setState('drawn'));

      return () => {
        for (const made of textures) made.dispose();
        floorMaterial.dispose();
        wallMaterial.dispose();
        floorGeometry.dispose();
        wallGeometry.dispose();
      };
    }
  }, [plan, normalPlan, roughnessPlan, width, depth]);

  // A new drawing of the same plans: the textures upload again.
  useEffect(() => {
    redrawRef.current();
  }, [revision]);

  return (
    <figure className="laying-room">
      <canvas
        ref={canvasRef}
        role="img"
        className="laying-room-canvas"
        aria-label={TEXTS.layingFloor3d}
        data-state={state}
        data-maps={normalPlan && roughnessPlan ? 'on' : 'off'}
      />
      <figcaption className="laying-note">
        {state === 'unavailable' ? TEXTS.layingFloor3dUnavailable : TEXTS.layingFloor3dNote}
      </figcaption>
    </figure>
  );
}
