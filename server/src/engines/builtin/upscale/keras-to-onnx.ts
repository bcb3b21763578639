/**
 * Converts the ESRGAN Keras layers model (as `@upscalerjs/esrgan-slim` ships it for TensorFlow.js)
 * into an ONNX graph for onnxruntime, at build time (build-onnx-models.ts). Covers the layers
 * these RDN models are made of: Conv2D (stride 1, 'same' or 'valid'), ReLU activations,
 * Concatenate on channels, Add, and a nearest UpSampling2D followed by a 3×3 Conv2D, which is
 * folded into a 3×3 convolution at the input resolution and a depth-to-space shuffle exactly as
 * the tfjs path does (esrgan.ts, subPixelKernel). Anything else is refused.
 *
 * The graph takes and gives NHWC float tensors like the tfjs model ([1, H, W, 3], values 0–255;
 * output [1, H·s, W·s, 3] clamped to 0–255) so both runtimes sit behind the same `Esrgan.run`;
 * inside it works in NCHW, ONNX's convolution layout.
 */
import { ONNX_INPUT, ONNX_OUTPUT, type KerasLayer, type KerasModel } from './model-files.js';
import { subPixelKernel } from './esrgan.js';
import type { OnnxGraph, OnnxInitializer, OnnxNode } from './onnx-writer.js';

interface Conv2DConfig {
  filters: number;
  kernel_size: [number, number];
  strides: [number, number];
  padding: 'same' | 'valid';
  dilation_rate: [number, number];
  data_format: string;
  activation: string;
  use_bias: boolean;
}

/** The graph of a Keras ESRGAN (RDN) model; the result is clamped to 0–255. */
export function kerasToOnnxGraph(model: KerasModel, name: string): OnnxGraph {
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  /** Keras layer name → ONNX value holding its output (NCHW). */
  const values = new Map<string, string>();
  const consumers = new Map<string, KerasLayer[]>();
  for (const layer of model.layers) {
    for (const input of inputsOf(layer)) {
      consumers.set(input, [...(consumers.get(input) ?? []), layer]);
    }
  }
  const valueOf = (layerName: string): string => {
    const value = values.get(layerName);
    if (value === undefined)
      throw new Error(`ONNX conversion: ${layerName} is used before it is made`);
    return value;
  };
  const weight = (key: string) => {
    const w = model.weights.get(key);
    if (!w) throw new Error(`ONNX conversion: no weight ${key}`);
    return w;
  };
  /** A Conv2D layer's convolution, from `input`, with its HWIO kernel given (maybe folded). */
  const conv = (
    layer: KerasLayer,
    input: string,
    kernel: Float32Array,
    shape: [number, number, number, number],
    bias: Float32Array,
  ): string => {
    const c = layer.config as unknown as Conv2DConfig;
    const [kh, kw, channels, filters] = shape;
    if (c.strides.some((s) => s !== 1) || c.dilation_rate.some((d) => d !== 1)) {
      throw new Error(`ONNX conversion: ${layer.name} has strides or dilation`);
    }
    if (c.data_format !== 'channels_last') {
      throw new Error(`ONNX conversion: ${layer.name} is ${c.data_format}`);
    }
    if (c.padding === 'same' && (kh % 2 === 0 || kw % 2 === 0)) {
      throw new Error(`ONNX conversion: ${layer.name} has an even kernel with 'same' padding`);
    }
    const ph = c.padding === 'same' ? (kh - 1) / 2 : 0;
    const pw = c.padding === 'same' ? (kw - 1) / 2 : 0;
    initializers.push(
      {
        name: `${layer.name}/W`,
        dims: [filters, channels, kh, kw],
        data: hwioToOihw(kernel, shape),
      },
      { name: `${layer.name}/B`, dims: [filters], data: bias },
    );
    const output = `${layer.name}/conv`;
    nodes.push({
      op: 'Conv',
      name: layer.name,
      inputs: [input, `${layer.name}/W`, `${layer.name}/B`],
      outputs: [output],
      attributes: { kernel_shape: [kh, kw], pads: [ph, pw, ph, pw], strides: [1, 1] },
    });
    return activation(layer, output, c.activation);
  };
  const activation = (layer: KerasLayer, input: string, kind: string): string => {
    if (kind === 'linear') return input;
    if (kind !== 'relu') throw new Error(`ONNX conversion: ${layer.name}: activation ${kind}`);
    const output = `${layer.name}/relu`;
    nodes.push({ op: 'Relu', inputs: [input], outputs: [output] });
    return output;
  };

  const [inputLayer, ...otherInputs] = model.inputs;
  if (!inputLayer || otherInputs.length > 0) throw new Error('ONNX conversion: not one input');
  nodes.push({
    op: 'Transpose',
    inputs: [ONNX_INPUT],
    outputs: ['LR/nchw'],
    attributes: { perm: [0, 3, 1, 2] },
  });
  values.set(inputLayer, 'LR/nchw');

  /** UpSampling2D layers folded into the convolution that reads them: name → scale. */
  const folded = new Map<string, number>();
  let scale = 1;
  for (const layer of model.layers) {
    const inputs = inputsOf(layer);
    switch (layer.class_name) {
      case 'InputLayer':
        break;
      case 'Conv2D': {
        const c = layer.config as unknown as Conv2DConfig;
        const kernel = weight(`${layer.name}/kernel`);
        const bias = c.use_bias ? weight(`${layer.name}/bias`).data : new Float32Array(c.filters);
        const shape = kernel.shape as [number, number, number, number];
        const [source] = inputs;
        if (source === undefined || inputs.length !== 1) {
          throw new Error(`ONNX conversion: ${layer.name} has ${inputs.length} inputs`);
        }
        const s = folded.get(source);
        if (s === undefined) {
          values.set(layer.name, conv(layer, valueOf(source), kernel.data, shape, bias));
          break;
        }
        // Upsampled ×s then this 3×3 convolution: a 3×3 convolution to s²·colours channels at
        // the input resolution, then depth-to-space (DCR: channel (a·s + b)·colours + c is colour
        // c at offset (a, b), the order subPixelKernel and tfjs.depthToSpace use).
        const [kh, kw, channels, colours] = shape;
        if (kh !== 3 || kw !== 3 || c.padding !== 'same' || c.activation !== 'linear') {
          throw new Error(`ONNX conversion: ${layer.name} after an upsampling is not a 3×3 'same'`);
        }
        const upsampled = upsampleInputOf(model, source);
        const outputs = colours * s * s;
        const foldedBias = Float32Array.from({ length: outputs }, (_, i) => bias[i % colours] ?? 0);
        const shuffled = conv(
          layer,
          valueOf(upsampled),
          subPixelKernel(kernel.data, channels, colours, s),
          [3, 3, channels, outputs],
          foldedBias,
        );
        const output = `${layer.name}/depth-to-space`;
        nodes.push({
          op: 'DepthToSpace',
          inputs: [shuffled],
          outputs: [output],
          attributes: { blocksize: s, mode: 'DCR' },
        });
        values.set(layer.name, output);
        scale *= s;
        break;
      }
      case 'Activation': {
        const [source] = inputs;
        if (source === undefined) throw new Error(`ONNX conversion: ${layer.name} has no input`);
        values.set(
          layer.name,
          activation(layer, valueOf(source), String(layer.config['activation'])),
        );
        break;
      }
      case 'Concatenate': {
        const axis = Number(layer.config['axis']);
        if (axis !== 3 && axis !== -1) {
          throw new Error(`ONNX conversion: ${layer.name} concatenates on axis ${axis}`);
        }
        const output = `${layer.name}/concat`;
        nodes.push({
          op: 'Concat',
          name: layer.name,
          inputs: inputs.map(valueOf),
          outputs: [output],
          attributes: { axis: 1 },
        });
        values.set(layer.name, output);
        break;
      }
      case 'Add': {
        let sum = valueOf(inputs[0] ?? '');
        inputs.slice(1).forEach((input, k) => {
          const output = `${layer.name}/add${k}`;
          nodes.push({ op: 'Add', inputs: [sum, valueOf(input)], outputs: [output] });
          sum = output;
        });
        values.set(layer.name, sum);
        break;
      }
      case 'UpSampling2D': {
        const size = layer.config['size'] as [number, number];
        const readers = consumers.get(layer.name) ?? [];
        if (
          layer.config['interpolation'] !== 'nearest' ||
          size[0] !== size[1] ||
          readers.length !== 1 ||
          readers[0]?.class_name !== 'Conv2D'
        ) {
          throw new Error(`ONNX conversion: ${layer.name} is not a nearest ×s before a Conv2D`);
        }
        folded.set(layer.name, size[0]);
        break;
      }
      default:
        throw new Error(`ONNX conversion: unsupported layer ${layer.class_name} (${layer.name})`);
    }
  }

  const [outputLayer, ...otherOutputs] = model.outputs;
  if (!outputLayer || otherOutputs.length > 0) throw new Error('ONNX conversion: not one output');
  initializers.push(
    { name: 'clip/min', dims: [], data: Float32Array.of(0) },
    { name: 'clip/max', dims: [], data: Float32Array.of(255) },
  );
  nodes.push(
    {
      op: 'Clip',
      inputs: [valueOf(outputLayer), 'clip/min', 'clip/max'],
      outputs: ['SR/clipped'],
    },
    {
      op: 'Transpose',
      inputs: ['SR/clipped'],
      outputs: [ONNX_OUTPUT],
      attributes: { perm: [0, 2, 3, 1] },
    },
  );
  return {
    name,
    nodes,
    initializers,
    inputs: [{ name: ONNX_INPUT, shape: [1, 'height', 'width', 3] }],
    outputs: [{ name: ONNX_OUTPUT, shape: [1, `height*${scale}`, `width*${scale}`, 3] }],
  };
}

function inputsOf(layer: KerasLayer): string[] {
  const [call, ...more] = layer.inbound_nodes;
  if (more.length > 0) throw new Error(`ONNX conversion: ${layer.name} is called more than once`);
  return (call ?? []).map(([name]) => name);
}

function upsampleInputOf(model: KerasModel, upsampleName: string): string {
  const layer = model.layers.find((l) => l.name === upsampleName);
  const [input] = layer ? inputsOf(layer) : [];
  if (input === undefined) throw new Error(`ONNX conversion: ${upsampleName} has no input`);
  return input;
}

/** A Keras kernel [kh][kw][in][out] as ONNX's [out][in][kh][kw]. */
function hwioToOihw(kernel: Float32Array, [kh, kw, ci, co]: number[]): Float32Array {
  const [h, w, i, o] = [kh ?? 0, kw ?? 0, ci ?? 0, co ?? 0];
  const result = new Float32Array(kernel.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < i; c++) {
        for (let f = 0; f < o; f++) {
          result[((f * i + c) * h + y) * w + x] = kernel[((y * w + x) * i + c) * o + f] ?? 0;
        }
      }
    }
  }
  return result;
}
