// The MaterialX document of a material package (issue 26, part 3): a standard_surface fed by
// tiledimage nodes that read the package's PNGs, which lie beside it in the ZIP.

export interface MaterialxInput {
  /** The package's name (`waves_ld`): names the material and its nodes. */
  name: string;
  /** The PNGs the document reads, by their names in the package. */
  files: { baseColour: string; roughness: string; normalOpenGl: string; height: string };
  /** The tile's size in metres. */
  widthM: number;
  heightM: number;
  /** How far the height map's full range displaces the surface, in metres. */
  displacementM: number;
}

/** MaterialX 1.38: what Blender, Houdini, Maya and three.js's loader all read. */
export const MATERIALX_VERSION = '1.38';

/** An element name MaterialX accepts: letters, digits and underscores, not starting with a digit. */
export function materialxName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `M_${safe}`;
}

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** A number as MaterialX writes one: plain decimals, never an exponent. */
const decimal = (value: number) => String(Number(value.toFixed(6)));

/**
 * The document. UVs are taken in metres (as the package's `.glb` has them, and as Blender's
 * world-scale UVs give), so `uvtiling` 1/width, 1/height repeats the texture once per tile of the
 * ordered size. The height displaces along the normal around its mid-grey: 0.5 stays on the
 * surface, white rises and black sinks by half of `displacementM`.
 */
export function materialxDocument(input: MaterialxInput): string {
  const name = materialxName(input.name);
  const tiling = `${decimal(1 / input.widthM)}, ${decimal(1 / input.heightM)}`;
  const image = (node: string, type: string, file: string, colourSpace?: string) =>
    [
      `    <tiledimage name="${node}" type="${type}">`,
      `      <input name="file" type="filename" value="${escapeXml(file)}"${
        colourSpace ? ` colorspace="${colourSpace}"` : ''
      } />`,
      `      <input name="uvtiling" type="vector2" value="${tiling}" />`,
      '    </tiledimage>',
    ].join('\n');
  const graph = `NG_${name}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- A tile of ${decimal(input.widthM)} x ${decimal(input.heightM)} m, made by Tessera. -->
<materialx version="${MATERIALX_VERSION}" colorspace="lin_rec709">
  <nodegraph name="${graph}">
${image('base_color_image', 'color3', input.files.baseColour, 'srgb_texture')}
${image('roughness_image', 'float', input.files.roughness)}
${image('normal_image', 'vector3', input.files.normalOpenGl)}
    <normalmap name="normal_map" type="vector3">
      <input name="in" type="vector3" nodename="normal_image" />
    </normalmap>
${image('height_image', 'float', input.files.height)}
    <subtract name="height_centred" type="float">
      <input name="in1" type="float" nodename="height_image" />
      <input name="in2" type="float" value="0.5" />
    </subtract>
    <output name="base_color_output" type="color3" nodename="base_color_image" />
    <output name="roughness_output" type="float" nodename="roughness_image" />
    <output name="normal_output" type="vector3" nodename="normal_map" />
    <output name="height_output" type="float" nodename="height_centred" />
  </nodegraph>
  <standard_surface name="SR_${name}" type="surfaceshader">
    <input name="base" type="float" value="1" />
    <input name="base_color" type="color3" nodegraph="${graph}" output="base_color_output" />
    <input name="metalness" type="float" value="0" />
    <input name="specular_roughness" type="float" nodegraph="${graph}" output="roughness_output" />
    <input name="normal" type="vector3" nodegraph="${graph}" output="normal_output" />
  </standard_surface>
  <displacement name="DISP_${name}" type="displacementshader">
    <input name="displacement" type="float" nodegraph="${graph}" output="height_output" />
    <input name="scale" type="float" value="${decimal(input.displacementM)}" />
  </displacement>
  <surfacematerial name="M_${name}" type="material">
    <input name="surfaceshader" type="surfaceshader" nodename="SR_${name}" />
    <input name="displacementshader" type="displacementshader" nodename="DISP_${name}" />
  </surfacematerial>
</materialx>
`;
}
