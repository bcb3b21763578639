import type { FileArea } from '../files/file-store.js';
import type { Holdings, Reownership, TakenNames } from '../store/take-over.js';
import { stem } from './generation.js';
import { thumbnailName } from './images.js';

/** The new owner's input files: a name with another file (size) is taken, one of ours is not. */
export type InputFiles = ReadonlyMap<string, number>;

/** How a take-over renames: the rows' new values, and each old file's new name per area. */
export interface TakeOverPlan {
  reownership: Reownership;
  /** Images that got a new name. */
  renamed: number;
  /** The new name of a file of the old owner's area (its own when it keeps it). */
  fileName(area: FileArea, name: string): string;
}

/** foo.png, foo-2.png, foo-3.png…: the extension kept, so the file's type is. */
export function numbered(name: string, n: number): string {
  if (n < 2) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/** A derived file's name (maps, prints: `<stem of the image>_…`) after its image's renaming. */
function renamedPrefix(name: string, from: string, to: string): string | undefined {
  return name.startsWith(`${from}_`) ? `${to}${name.slice(from.length)}` : undefined;
}

/**
 * The renaming of a take-over, from the rows alone (and the new owner's input files), so a
 * re-run after a crash plans the same names: each image keeps its name unless the new owner has
 * it (or a map or print file named from it), else takes the first free `-2`, `-3`…; its
 * thumbnail, maps and print files follow its stem, the LD names its HD images record, and the
 * reference names its LD images record.
 */
export function planTakeOver(
  from: number,
  to: number,
  held: Holdings,
  taken: TakenNames,
  theirInput: InputFiles,
  ourInput: InputFiles,
): TakeOverPlan {
  const imageNames = new Map<string, string>();
  const stems: Record<'maps' | 'print', [string, string][]> = { maps: [], print: [] };
  let renamed = 0;
  for (const image of held.images) {
    const maps = held.maps.filter((m) => m.imageId === image.id);
    const prints = held.prints.filter((p) => p.imageId === image.id);
    const derived = (name: string) => {
      const [old, next] = [stem(image.filename), stem(name)];
      const mapNames = maps.flatMap((m) => [m.filename, m.preview]);
      return {
        maps: mapNames.map((n) => renamedPrefix(n, old, next) ?? n),
        prints: prints.map((p) => renamedPrefix(p.filename, old, next) ?? p.filename),
        ok: name === image.filename || next !== old,
      };
    };
    let n = 1;
    for (; ; n++) {
      const name = numbered(image.filename, n);
      const d = derived(name);
      const free =
        d.ok &&
        !taken[image.kind].has(name) &&
        d.maps.every((m) => !taken.maps.has(m)) &&
        d.prints.every((p) => !taken.print.has(p));
      if (free) break;
    }
    const name = numbered(image.filename, n);
    if (n > 1) renamed += 1;
    taken[image.kind].add(name);
    derived(name).maps.forEach((m) => taken.maps.add(m));
    derived(name).prints.forEach((p) => taken.print.add(p));
    imageNames.set(`${image.kind}/${image.filename}`, name);
    if (n > 1) {
      const pair: [string, string] = [stem(image.filename), stem(name)];
      stems.maps.push([`${pair[0]}_${image.kind}`, `${pair[1]}_${image.kind}`]);
      if (image.kind === 'hd') stems.print.push(pair);
    }
  }

  const inputNames = new Map<string, string>();
  const theirReferences = new Set(taken.input);
  const ourNames = [...new Set([...ourInput.keys(), ...held.references.map((r) => r.filename)])];
  for (const name of ourNames.sort()) {
    const isTaken = (candidate: string) =>
      (taken.input.has(candidate) && !sameFile(candidate, name)) ||
      (theirInput.has(candidate) && theirInput.get(candidate) !== ourInput.get(name));
    let n = 1;
    while (isTaken(numbered(name, n))) n++;
    inputNames.set(name, numbered(name, n));
    taken.input.add(numbered(name, n));
  }
  // The new owner's reference of that name is this very file (same size): ours is not needed.
  function sameFile(candidate: string, ours: string): boolean {
    return candidate === ours && theirInput.get(candidate) === ourInput.get(ours);
  }

  const image = (kind: 'ld' | 'hd', name: string) => imageNames.get(`${kind}/${name}`) ?? name;
  const byPrefix = (pairs: [string, string][], name: string) => {
    const match = pairs
      .filter(([old]) => name.startsWith(`${old}_`))
      .sort((a, b) => b[0].length - a[0].length)[0];
    return match ? `${match[1]}${name.slice(match[0].length)}` : name;
  };
  const input = (name: string) => inputNames.get(name) ?? name;

  const fileName = (area: FileArea, name: string): string => {
    switch (area) {
      case 'ld':
      case 'hd':
        return image(area, name);
      case 'ld-thumbnails':
      case 'hd-thumbnails': {
        const kind = area === 'ld-thumbnails' ? 'ld' : 'hd';
        const original = name.replace(/\.webp$/, '');
        return name.endsWith('.webp') ? thumbnailName(image(kind, original)) : name;
      }
      case 'maps':
        return byPrefix(stems.maps, name);
      case 'print':
        return byPrefix(stems.print, name);
      case 'input':
        return input(name);
    }
  };

  const reownership: Reownership = {
    from,
    to,
    images: held.images.map(({ id, kind, filename, metadata }) => ({
      id,
      filename: image(kind, filename),
      metadata: renamedMetadata(metadata, kind, image, input),
    })),
    maps: held.maps.map(({ id, filename, preview }) => ({
      id,
      filename: fileName('maps', filename),
      preview: fileName('maps', preview),
    })),
    prints: held.prints.map(({ id, filename }) => ({ id, filename: fileName('print', filename) })),
    // A name their own row records is the same file (else it was renamed): one row is enough.
    references: held.references.map(({ seq, filename }) => ({
      seq,
      filename: theirReferences.has(input(filename)) ? null : input(filename),
    })),
  };
  return { reownership, renamed, fileName };
}

/** The names the metadata records: an HD image's LD source, an LD image's reference. */
function renamedMetadata(
  metadata: string,
  kind: 'ld' | 'hd',
  image: (kind: 'ld' | 'hd', name: string) => string,
  input: (name: string) => string,
): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(metadata) as Record<string, unknown>;
  } catch {
    return metadata;
  }
  const { source_image: source, input_image_path: reference } = parsed;
  const next = { ...parsed };
  if (kind === 'hd' && typeof source === 'string') next.source_image = image('ld', source);
  if (typeof reference === 'string') next.input_image_path = input(reference);
  return JSON.stringify(next);
}
