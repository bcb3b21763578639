import { TEXT_BUNDLES } from '@tessera/contract';
import type { GenerationForm, LdImage } from '@tessera/contract';
import { useSyncExternalStore } from 'react';
import { DEFAULT_FIELDS, fieldsFromMetadata } from './form-state';
import type { FormFields } from './form-state';
import { runGenerationBatch } from './generation-flow';
import type { GenerationFlowApi } from '../../lib/api/generation-flow';
import type { BatchResult, FlowOptions } from './generation-flow';
import { currentTexts } from '../../lib/i18n';

/** The texts in the language shown when one is written. */
const texts = () => currentTexts(TEXT_BUNDLES.texts);

/** The accepted reference image, with its size and an address to show it. */
export interface Reference {
  file: File;
  width: number;
  height: number;
  /** An object URL of `file`, revoked when the reference is replaced. */
  url: string;
}

/** A footer thumbnail: `image` is null while the item is still pending. */
export interface ResultItem {
  key: string;
  image: LdImage | null;
  /** A face of a series (Faces > 1, issue 25): which one, out of how many. */
  face?: { face: number; faces: number };
}

export interface GenerateState {
  reference: Reference | null;
  fields: FormFields;
  /** The tags chosen for the results. */
  tagIds: readonly string[];
  busy: boolean;
  /** The n of 'Generating... (n%)'. */
  percent: number;
  /** Shown under the progress while the running job waits (the image storage unreachable). */
  notice: string | null;
  /** The error line: SPEC §8's generation error, with the specific text when there is one. */
  error: { message: string; detail: string | undefined } | null;
  /** The session's results, oldest first, pending items included. */
  results: readonly ResultItem[];
  /** The image in the preview area. */
  shown: LdImage | null;
}

const INITIAL: GenerateState = {
  reference: null,
  fields: DEFAULT_FIELDS,
  tagIds: [],
  busy: false,
  percent: 0,
  notice: null,
  error: null,
  results: [],
  shown: null,
};

/**
 * The Generate screen's state for one user, kept outside React so that a batch runs on and its
 * results stay while the person visits other screens ("the session's results", SPEC §2).
 */
export class GenerateSession {
  private state: GenerateState = INITIAL;
  private readonly listeners = new Set<() => void>();
  private nextKey = 0;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): GenerateState => this.state;

  private update(change: Partial<GenerateState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  setReference(reference: Omit<Reference, 'url'> | null): void {
    const previous = this.state.reference;
    if (previous) URL.revokeObjectURL(previous.url);
    this.update({
      reference: reference && { ...reference, url: URL.createObjectURL(reference.file) },
    });
  }

  setFields(change: Partial<FormFields>): void {
    this.update({ fields: { ...this.state.fields, ...change } });
  }

  toggleTag(tagId: string): void {
    const { tagIds } = this.state;
    this.update({
      tagIds: tagIds.includes(tagId) ? tagIds.filter((id) => id !== tagId) : [...tagIds, tagId],
    });
  }

  /** A footer thumbnail clicked: its image in the preview, its reference and parameters in the form. */
  reloadFrom(image: LdImage, reference: Omit<Reference, 'url'> | null): void {
    if (reference) this.setReference(reference);
    this.update({
      fields: fieldsFromMetadata(image.metadata, this.state.fields),
      shown: image,
      error: null,
    });
  }

  /**
   * "Use these settings" of an image: its reference, every parameter and its tags in the form;
   * the preview and the session's results stay as they are.
   */
  remix(
    metadata: Record<string, unknown>,
    tagIds: readonly string[],
    reference: Omit<Reference, 'url'> | null,
  ): void {
    if (reference) this.setReference(reference);
    this.update({ fields: fieldsFromMetadata(metadata, this.state.fields), tagIds, error: null });
  }

  clearError(): void {
    this.update({ error: null });
  }

  /**
   * SPEC §4: locks the form, adds one footer placeholder per item (per face of each item's
   * series, issue 25) and runs the batch. Returns when the batch has ended, either way; a failure
   * leaves the error line set.
   */
  async generate(
    api: GenerationFlowApi,
    batch: { user: string; form: GenerationForm; tagIds: readonly string[] },
    options: FlowOptions = {},
  ): Promise<void> {
    const { reference, busy } = this.state;
    if (busy || !reference) return;
    const faces = batch.form.faces > 1 ? batch.form.faces : 1;
    const placeholders = Array.from({ length: batch.form.batchSize }, () =>
      Array.from({ length: faces }, (_, slot): ResultItem => {
        const key = `result-${this.nextKey++}`;
        return faces === 1
          ? { key, image: null }
          : { key, image: null, face: { face: slot + 1, faces } };
      }),
    );
    const keys = placeholders.map((item) => item.map((placeholder) => placeholder.key));
    this.update({
      busy: true,
      percent: 0,
      error: null,
      shown: null,
      results: [...this.state.results, ...placeholders.flat()],
    });

    const result: BatchResult = await runGenerationBatch(
      api,
      { user: batch.user, reference: reference.file, form: batch.form, tagIds: batch.tagIds },
      {
        onProgress: (percent) => this.update({ percent }),
        onNotice: (notice) => this.update({ notice: notice ?? null }),
        onImage: (index, image, slot) =>
          this.update({
            // The preview keeps face 1 while the other faces of its series come in.
            shown: slot === 0 || this.state.shown === null ? image : this.state.shown,
            results: this.state.results.map((item) =>
              item.key === keys[index]?.[slot] ? { ...item, image } : item,
            ),
          }),
      },
      options,
    ).catch((cause: unknown) => ({ ok: false, index: 0, detail: undefined, cause }));

    // Placeholders that got no image leave the footer: the items after a failure, and the faces
    // a series did not make.
    const batchKeys = new Set(keys.flat());
    const results = this.state.results.filter((item) => !(batchKeys.has(item.key) && !item.image));
    if (result.ok) {
      this.update({ busy: false, percent: 100, notice: null, results });
      return;
    }
    console.error('Preview generation failed:', result.cause);
    this.update({
      busy: false,
      notice: null,
      error: { message: texts().generationError, detail: result.detail },
      results,
    });
  }
}

const sessions = new Map<string, GenerateSession>();

/** The session of a user ('' when signed out), made on first use. */
export function generateSessionFor(user: string): GenerateSession {
  let session = sessions.get(user);
  if (!session) {
    session = new GenerateSession();
    sessions.set(user, session);
  }
  return session;
}

/** Forgets every session (tests). */
export function clearGenerateSessions(): void {
  sessions.clear();
}

export function useGenerateState(session: GenerateSession): GenerateState {
  return useSyncExternalStore(session.subscribe, session.getState);
}
