/**
 * A small ICC v2 output profile made in the test, so that no printer profile is downloaded
 * (issue 26, part 1): CMYK ⇄ Lab (PCS) through two lut16Type tables over a simple analytic
 * press: each ink takes away its complement of sRGB and black darkens all three,
 *
 *   R = (1 − C)(1 − K),  G = (1 − M)(1 − K),  B = (1 − Y)(1 − K)  (read as sRGB),
 *
 * and its exact inverse with grey-component replacement: black takes `gcr` of the grey shared by
 * the three channels, the inks the rest. Every sRGB colour is inside this press's gamut, so a
 * round trip through it loses only the tables' interpolation and the file's quantisation.
 */

export interface TestCmykProfileOptions {
  /** The profile's description (its `desc` tag): what the profiles list shows. */
  description?: string;
  /** Share of the grey component black replaces, 0–1. */
  gcr?: number;
  /** Grid points per input channel of the two tables. */
  forwardGrid?: number;
  inverseGrid?: number;
}

/** D50, the PCS white of every ICC profile. */
const D50 = [0.9642, 1, 0.8249] as const;

/** sRGB's linear RGB → XYZ, adapted to D50 (Bradford), as ICC sRGB profiles have it. */
const RGB_TO_XYZ = [
  [0.4360747, 0.3850649, 0.1430804],
  [0.2225045, 0.7168786, 0.0606169],
  [0.0139322, 0.0971045, 0.7141733],
] as const;
const XYZ_TO_RGB = [
  [3.1338561, -1.6168667, -0.4906146],
  [-0.9787684, 1.9161415, 0.033454],
  [0.0719453, -0.2289914, 1.4052427],
] as const;

type Triple = [number, number, number];

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toGamma = (v: number) => (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);
const times = (m: readonly (readonly number[])[], v: Triple): Triple =>
  m.map((row) => (row[0] ?? 0) * v[0] + (row[1] ?? 0) * v[1] + (row[2] ?? 0) * v[2]) as Triple;

/** sRGB (0–1, gamma-encoded) → CIE Lab relative to D50. */
export function srgbToLab(rgb: Triple): Triple {
  const xyz = times(RGB_TO_XYZ, rgb.map(toLinear) as Triple);
  const f = (t: number) => (t > (6 / 29) ** 3 ? Math.cbrt(t) : t / (3 * (6 / 29) ** 2) + 4 / 29);
  const [fx, fy, fz] = xyz.map((v, i) => f(v / (D50[i] ?? 1))) as Triple;
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE Lab (D50) → sRGB (0–1, gamma-encoded), clipped to the gamut. */
export function labToSrgb([l, a, b]: Triple): Triple {
  const fy = (l + 16) / 116;
  const finv = (t: number) => (t > 6 / 29 ? t ** 3 : 3 * (6 / 29) ** 2 * (t - 4 / 29));
  const xyz: Triple = [finv(fy + a / 500) * D50[0], finv(fy) * D50[1], finv(fy - b / 200) * D50[2]];
  return times(XYZ_TO_RGB, xyz).map((v) => clamp01(toGamma(clamp01(v)))) as Triple;
}

/** The press: CMYK (0–1) → sRGB. */
export function cmykToSrgb([c, m, y, k]: [number, number, number, number]): Triple {
  return [(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)];
}

/** Its inverse: sRGB → CMYK, black replacing `gcr` of the grey component. */
export function srgbToCmyk(rgb: Triple, gcr: number): [number, number, number, number] {
  const k = gcr * (1 - Math.max(...rgb));
  const ink = (v: number) => (k >= 1 ? 0 : clamp01(1 - v / (1 - k)));
  return [ink(rgb[0]), ink(rgb[1]), ink(rgb[2]), k];
}

// ICC v2 ("legacy") 16-bit Lab: L 0–100 → 0–0xFF00, a and b −128–127.996 → 0–0xFFFF.
const encodeLab = ([l, a, b]: Triple): Triple => [
  Math.round(Math.min(0xffff, Math.max(0, (l * 0xff00) / 100))),
  Math.round(Math.min(0xffff, Math.max(0, (a + 128) * 256))),
  Math.round(Math.min(0xffff, Math.max(0, (b + 128) * 256))),
];
const decodeLab = ([l, a, b]: Triple): Triple => [(l * 100) / 0xff00, a / 256 - 128, b / 256 - 128];

/** A lut16Type ('mft2') table: identity curves, a grid of `points` per input, `fill` per node. */
function lut16(
  inputs: number,
  outputs: number,
  points: number,
  fill: (node: number[]) => number[],
): Buffer {
  const nodes = points ** inputs;
  const head = 52;
  const curves = 2; // entries per 1-D table: a straight line
  const size = head + inputs * curves * 2 + nodes * outputs * 2 + outputs * curves * 2;
  const out = Buffer.alloc(size);
  out.write('mft2', 0, 'latin1');
  out.writeUInt8(inputs, 8);
  out.writeUInt8(outputs, 9);
  out.writeUInt8(points, 10);
  // The matrix (used only with an XYZ input) is the identity.
  for (let i = 0; i < 3; i++) out.writeInt32BE(0x10000, 12 + (i * 3 + i) * 4);
  out.writeUInt16BE(curves, 48);
  out.writeUInt16BE(curves, 50);
  let at = head;
  const line = () => {
    out.writeUInt16BE(0, at);
    out.writeUInt16BE(0xffff, at + 2);
    at += 4;
  };
  for (let i = 0; i < inputs; i++) line();
  // The first input varies slowest.
  for (let n = 0; n < nodes; n++) {
    const node: number[] = [];
    for (let i = inputs - 1, rest = n; i >= 0; i--, rest = Math.floor(rest / points)) {
      node[i] = (rest % points) / (points - 1);
    }
    for (const value of fill(node)) {
      out.writeUInt16BE(Math.round(Math.min(1, Math.max(0, value)) * 0xffff), at);
      at += 2;
    }
  }
  for (let o = 0; o < outputs; o++) line();
  return out;
}

function textDescription(text: string): Buffer {
  const ascii = Buffer.from(`${text}\0`, 'latin1');
  // 'desc', reserved, ASCII count and text, Unicode (none), ScriptCode (none: 67 bytes).
  const out = Buffer.alloc(12 + ascii.length + 8 + 3 + 67);
  out.write('desc', 0, 'latin1');
  out.writeUInt32BE(ascii.length, 8);
  ascii.copy(out, 12);
  return out;
}

function textType(text: string): Buffer {
  const out = Buffer.alloc(8 + text.length + 1);
  out.write('text', 0, 'latin1');
  out.write(text, 8, 'latin1');
  return out;
}

function xyzType(xyz: readonly number[]): Buffer {
  const out = Buffer.alloc(20);
  out.write('XYZ ', 0, 'latin1');
  xyz.forEach((v, i) => out.writeInt32BE(Math.round(v * 0x10000), 8 + i * 4));
  return out;
}

/** The bytes of an ICC v2 CMYK output profile ('prtr', Lab PCS) of the analytic press above. */
export function testCmykProfile(options: TestCmykProfileOptions = {}): Buffer {
  const gcr = options.gcr ?? 0.7;
  const a2b0 = lut16(4, 3, options.forwardGrid ?? 17, (cmyk) => {
    const lab = srgbToLab(cmykToSrgb(cmyk as [number, number, number, number]));
    return encodeLab(lab).map((v) => v / 0xffff);
  });
  const b2a0 = lut16(3, 4, options.inverseGrid ?? 33, (node) => {
    const lab = decodeLab(node.map((v) => v * 0xffff) as Triple);
    return srgbToCmyk(labToSrgb(lab), gcr);
  });
  const tags: [string, Buffer][] = [
    ['desc', textDescription(options.description ?? 'Tessera test press (analytic CMYK)')],
    ['cprt', textType('No copyright: made by the Tessera tests')],
    ['wtpt', xyzType(D50)],
    ['A2B0', a2b0],
    ['B2A0', b2a0],
  ];
  const tableSize = 4 + tags.length * 12;
  let offset = 128 + tableSize;
  const placed = tags.map(([signature, data]) => {
    const at = offset;
    offset += data.length + ((4 - (data.length % 4)) % 4);
    return { signature, data, at };
  });
  const profile = Buffer.alloc(offset);
  profile.writeUInt32BE(offset, 0);
  profile.writeUInt32BE(0x02100000, 8); // version 2.1
  profile.write('prtr', 12, 'latin1');
  profile.write('CMYK', 16, 'latin1');
  profile.write('Lab ', 20, 'latin1');
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => profile.writeUInt16BE(v, 24 + i * 2));
  profile.write('acsp', 36, 'latin1');
  profile.writeUInt32BE(0, 64); // perceptual
  D50.forEach((v, i) => profile.writeInt32BE(Math.round(v * 0x10000), 68 + i * 4));
  profile.writeUInt32BE(tags.length, 128);
  placed.forEach(({ signature, data, at }, i) => {
    profile.write(signature, 132 + i * 12, 'latin1');
    profile.writeUInt32BE(at, 136 + i * 12);
    profile.writeUInt32BE(data.length, 140 + i * 12);
    data.copy(profile, at);
  });
  return profile;
}
