/**
 * The ESRGAN models' files as the installed `@upscalerjs/esrgan-slim` and `-medium` packages ship them (Keras
 * layers models converted for TensorFlow.js: `models/x{scale}/model.json` and weight shards), and
 * the ONNX files the build makes from them (build-onnx-models.ts). No tfjs needed to read them.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EsrganVariant, ModelScale } from './plan.js';

const require = createRequire(import.meta.url);

/** The folder of an installed package, found from its entry point (the packages export no package.json). */
export function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = require(path.join(dir, 'package.json')) as { name?: string };
      if (manifest.name === name) return dir;
    } catch {
      // No package.json here: keep climbing.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the folder of the package ${name}`);
    dir = parent;
  }
}

/** `models/x{scale}/model.json` of the installed ESRGAN package (a Keras layers model). */
export function esrganModelPath(scale: ModelScale, variant: EsrganVariant = 'slim'): string {
  const dir = packageDir(`@upscalerjs/esrgan-${variant}`);
  return path.join(dir, 'models', `x${scale}`, 'model.json');
}

/**
 * Where the build writes the ONNX form of the model: `server/dist/models/`, found from this
 * module both in the built server (`server/dist/engines/builtin/upscale/`) and in the sources
 * (`server/src/engines/builtin/upscale/`). A build artefact, not in git.
 */
export function onnxModelPath(scale: ModelScale, variant: EsrganVariant = 'slim'): string {
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
  return path.join(serverDir, 'dist', 'models', `esrgan-${variant}-x${scale}.onnx`);
}

/** The ONNX graph's input and output names (NHWC float tensors). */
export const ONNX_INPUT = 'LR';
export const ONNX_OUTPUT = 'SR';

/** A Keras layer as model.json's `model_config` lists it. */
export interface KerasLayer {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  /** Per call of the layer, its inputs as [layer name, node index, tensor index, kwargs]. */
  inbound_nodes: [string, number, number, unknown?][][];
}

export interface KerasModel {
  layers: KerasLayer[];
  inputs: string[];
  outputs: string[];
  /** Float32 weights by name (`<layer>/kernel`, `<layer>/bias`) with their shapes. */
  weights: Map<string, { shape: number[]; data: Float32Array }>;
}

interface ModelJson {
  modelTopology: {
    model_config: {
      class_name: string;
      config: { layers: KerasLayer[]; input_layers: [string][]; output_layers: [string][] };
    };
  };
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string }[];
  }[];
}

/** Reads a TensorFlow.js layers model (model.json and its shards, concatenated in order). */
export async function readKerasModel(modelJsonPath: string): Promise<KerasModel> {
  const json = JSON.parse(await fs.readFile(modelJsonPath, 'utf8')) as ModelJson;
  const config = json.modelTopology.model_config;
  if (config.class_name !== 'Functional' && config.class_name !== 'Model') {
    throw new Error(`${modelJsonPath}: a ${config.class_name} model, not a functional one`);
  }
  const dir = path.dirname(modelJsonPath);
  const weights = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const group of json.weightsManifest) {
    const shards = await Promise.all(group.paths.map((file) => fs.readFile(path.join(dir, file))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.dtype !== 'float32') throw new Error(`Weight ${spec.name} is ${spec.dtype}`);
      const count = spec.shape.reduce((n, d) => n * d, 1);
      const data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = bytes.readFloatLE(offset + i * 4);
      weights.set(spec.name, { shape: spec.shape, data });
      offset += count * 4;
    }
    if (offset !== bytes.byteLength) {
      throw new Error(`${modelJsonPath}: the weights take ${offset} bytes of ${bytes.byteLength}`);
    }
  }
  return {
    layers: config.config.layers,
    inputs: config.config.input_layers.map(([name]) => name),
    outputs: config.config.output_layers.map(([name]) => name),
    weights,
  };
}
