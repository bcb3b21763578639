/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Reads of packages the tests made themselves: the tile has one node, one mesh, one material. */
import { execFileSync } from 'node:child_process';
import { NodeIO } from '@gltf-transform/core';
import { KHRTextureTransform, type Transform } from '@gltf-transform/extensions';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** The entry names of a ZIP as Info-ZIP's `unzip` reads them. */
export const zipEntries = (zip: string): string[] =>
  execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);

/** One entry's bytes as `unzip -p` extracts them. */
export const zipEntry = (zip: string, entry: string): Buffer =>
  execFileSync('unzip', ['-p', zip, entry], { maxBuffer: 256 * 1024 * 1024 });

/** A package's glTF tile: its bounds in metres and its base colour's repeat. */
export async function glbTile(glb: Uint8Array) {
  const doc = await new NodeIO().registerExtensions([KHRTextureTransform]).readBinary(glb);
  const primitive = doc.getRoot().listNodes()[0]!.getMesh()!.listPrimitives()[0]!;
  const info = primitive.getMaterial()!.getBaseColorTextureInfo()!;
  return {
    max: primitive.getAttribute('POSITION')!.getMax([]),
    repeat: info.getExtension<Transform>(KHRTextureTransform.EXTENSION_NAME)!.getScale(),
  };
}

/** The files a MaterialX document reads (every `file` input's value); throws if it is no XML. */
export function materialxFiles(document: string): string[] {
  const valid = XMLValidator.validate(document);
  if (valid !== true) throw new Error(`Not XML: ${valid.err.msg} (line ${valid.err.line})`);
  return filesNamedBy(new XMLParser({ ignoreAttributes: false }).parse(document));
}

function filesNamedBy(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(filesNamedBy);
  if (typeof node !== 'object' || node === null) return [];
  const element = node as Record<string, unknown>;
  const value = element['@_value'];
  const own = element['@_name'] === 'file' && typeof value === 'string' ? [value] : [];
  return [...own, ...Object.values(element).flatMap(filesNamedBy)];
}
