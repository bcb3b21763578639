/**
 * Just enough of the ONNX file format to write a convolutional network: the protobuf wire
 * encoding (varints and length-delimited fields) and the messages of onnx/onnx.proto that a
 * model of plain operators with float initializers needs. Field numbers are onnx.proto's.
 * Written here rather than with a protobuf library because these seven messages are all the
 * converter needs (keras-to-onnx.ts); onnxruntime, which parses the result, is the check.
 */

/** Protobuf wire types. */
const VARINT = 0;
const LENGTH_DELIMITED = 2;

/** A protobuf message being written: fields appended in order. */
class Message {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.size += bytes.byteLength;
  }

  private tag(field: number, wireType: number): void {
    this.push(varint(BigInt((field << 3) | wireType)));
  }

  /** An int32/int64/enum field (negative values as ten-byte two's complement, as protobuf does). */
  int(field: number, value: number): this {
    this.tag(field, VARINT);
    this.push(varint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  /** A repeated int64 field, packed. */
  ints(field: number, values: readonly number[]): this {
    return this.bytes(field, concat(values.map((v) => varint(BigInt.asUintN(64, BigInt(v))))));
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, LENGTH_DELIMITED);
    this.push(varint(BigInt(value.byteLength)));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: Message): this {
    return this.bytes(field, value.encode());
  }

  encode(): Uint8Array {
    return concat(this.parts, this.size);
  }
}

function varint(value: bigint): Uint8Array {
  const bytes: number[] = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return Uint8Array.from(bytes);
}

function concat(parts: readonly Uint8Array[], size?: number): Uint8Array {
  const result = new Uint8Array(size ?? parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    result.set(part, offset);
    offset += part.byteLength;
  }
  return result;
}

/** TensorProto.DataType.FLOAT */
const FLOAT = 1;
/** AttributeProto.AttributeType */
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_STRING = 3;
const ATTRIBUTE_INTS = 7;

export type AttributeValue = number | readonly number[] | string;

export interface OnnxNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Readonly<Record<string, AttributeValue>>;
}

export interface OnnxInitializer {
  name: string;
  dims: readonly number[];
  data: Float32Array;
}

/** A graph input or output: a float tensor whose dimensions are numbers or symbolic names. */
export interface OnnxValue {
  name: string;
  shape: readonly (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: readonly OnnxNode[];
  initializers: readonly OnnxInitializer[];
  inputs: readonly OnnxValue[];
  outputs: readonly OnnxValue[];
}

export interface OnnxModelInfo {
  /** Opset of the default (ai.onnx) domain. */
  opset: number;
  irVersion: number;
  producer: string;
  docString?: string;
}

function attribute(name: string, value: AttributeValue): Message {
  const m = new Message().string(1, name);
  if (typeof value === 'number') return m.int(3, value).int(20, ATTRIBUTE_INT);
  if (typeof value === 'string') {
    return m.bytes(4, new TextEncoder().encode(value)).int(20, ATTRIBUTE_STRING);
  }
  return m.ints(8, value).int(20, ATTRIBUTE_INTS);
}

function node(n: OnnxNode): Message {
  const m = new Message();
  for (const input of n.inputs) m.string(1, input);
  for (const output of n.outputs) m.string(2, output);
  if (n.name) m.string(3, n.name);
  m.string(4, n.op);
  for (const [name, value] of Object.entries(n.attributes ?? {})) {
    m.message(5, attribute(name, value));
  }
  return m;
}

function tensor(t: OnnxInitializer): Message {
  const count = t.dims.reduce((n, d) => n * d, 1);
  if (count !== t.data.length) {
    throw new Error(`ONNX initializer ${t.name}: ${t.data.length} values for dims ${t.dims}`);
  }
  // raw_data is little-endian; copy so that a view's offset does not matter.
  const raw = new Uint8Array(t.data.length * 4);
  const view = new DataView(raw.buffer);
  t.data.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return new Message().ints(1, t.dims).int(2, FLOAT).string(8, t.name).bytes(9, raw);
}

function valueInfo(v: OnnxValue): Message {
  const shape = new Message();
  for (const dim of v.shape) {
    shape.message(
      1,
      typeof dim === 'number' ? new Message().int(1, dim) : new Message().string(2, dim),
    );
  }
  const tensorType = new Message().int(1, FLOAT).message(2, shape);
  return new Message().string(1, v.name).message(2, new Message().message(1, tensorType));
}

/** The ONNX ModelProto of `graph`, serialised. */
export function encodeOnnxModel(graph: OnnxGraph, info: OnnxModelInfo): Uint8Array {
  const g = new Message();
  for (const n of graph.nodes) g.message(1, node(n));
  g.string(2, graph.name);
  for (const t of graph.initializers) g.message(5, tensor(t));
  for (const v of graph.inputs) g.message(11, valueInfo(v));
  for (const v of graph.outputs) g.message(12, valueInfo(v));
  const model = new Message().int(1, info.irVersion).string(2, info.producer);
  if (info.docString) model.string(6, info.docString);
  return model.message(7, g).message(8, new Message().string(1, '').int(2, info.opset)).encode();
}
