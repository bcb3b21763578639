import {
  POLL_INTERVAL_MS,
  TEXT_BUNDLES,
  readImageMetadata,
  validateGenerationForm,
} from '@tessera/contract';
import type { GenerationFormErrors, LdImage } from '@tessera/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { fetchPreviewEngine } from '../../lib/api/engine';
import { fetchInputImage } from '../../lib/api/generation';
import { createGenerationApi } from '../../lib/api/generation-flow';
import { LD_IMAGES_QUERY_KEY } from '../../lib/images/ld-images';
import { useMessaging } from '../../lib/messaging';
import { facesOfSeries, seriesFaceOf } from '../../components/gallery/series';
import { LdImageDetailsModal, remixOf } from '../image-details';
import { storageChanged } from '../quotas';
import { useTags } from '../tags';
import { toGenerationForm } from './form-state';
import type { FormFields } from './form-state';
import { generateSessionFor, useGenerateState } from './generate-session';
import type { GenerateSession, ResultItem } from './generate-session';
import { ParametersSection } from './parameters-section';
import { PreviewArea } from './preview-area';
import { checkReference } from './reference-check';
import { REFERENCE_PARAM } from './reference-link';
import { ReferenceUpload } from './reference-upload';
import { ResultsStrip } from './results-strip';
import { TagsSection } from './tags-section';
import { useTexts } from '../../lib/i18n';
import './generate-screen.css';

/** A checked File, or an alert with the rule's text (checklist U5) and nothing. */
async function acceptedReference(file: File) {
  const check = await checkReference(file);
  if (!check.ok) {
    window.alert(check.message);
    return null;
  }
  return { file, width: check.width, height: check.height };
}

/** An uploaded reference fetched back as a File; null (and logged) when it cannot be. */
async function referenceFromInput(filename: string) {
  try {
    return await acceptedReference(await fetchInputImage(filename));
  } catch (error) {
    console.error(`Loading the reference ${filename} failed:`, error);
    return null;
  }
}

export interface GenerateScreenProps {
  /** SPEC §9's 3 s; tests make it shorter. */
  pollIntervalMs?: number;
}

/** Route `/generate` (SPEC §2 Generate, §4 Generate flow; checklist G1–G17, U1–U6, P1–P4). */
export function GenerateScreen({ pollIntervalMs = POLL_INTERVAL_MS }: GenerateScreenProps) {
  const TEXTS = useTexts(TEXT_BUNDLES.texts);
  const texts = useTexts(TEXT_BUNDLES.generate);
  const client = useMessaging();
  const queryClient = useQueryClient();
  const session = generateSessionFor(client?.user ?? '');
  const state = useGenerateState(session);
  const { tags, isLoading: tagsLoading } = useTags();
  const [errors, setErrors] = useState<GenerationFormErrors>({});
  // Generate was pressed without a reference: the text is read in the language shown.
  const [referenceMissing, setReferenceMissing] = useState(false);
  const [details, setDetails] = useState<LdImage | null>(null);
  // Issue 27: the help and the prompt chips say what the controls do on this engine.
  const engine = useQuery({
    queryKey: ['preview-engine'],
    queryFn: fetchPreviewEngine,
    staleTime: Infinity,
  }).data;
  useReferenceFromLink(session);
  useRemixFromLink(session);

  const { busy } = state;

  async function chooseFile(file: File) {
    const reference = await acceptedReference(file);
    if (reference) session.setReference(reference);
  }

  function changeFields(change: Partial<FormFields>) {
    session.setFields(change);
    // A field's error goes once the person changes it; the next submit checks it again.
    setErrors(Object.fromEntries(Object.entries(errors).filter(([name]) => !(name in change))));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !client) return;
    const form = toGenerationForm(state.fields);
    const formErrors = validateGenerationForm(form);
    setErrors(formErrors);
    setReferenceMissing(!state.reference);
    if (!state.reference || Object.keys(formErrors).length > 0) return;

    // Checked again at submit (U6): the file may have changed on disk since it was chosen.
    const reference = state.reference;
    if (!(await acceptedReference(reference.file))) {
      session.setReference(null);
      return;
    }
    const known = new Set(tags.map((tag) => tag.id));
    await session.generate(
      createGenerationApi(client),
      { user: client.user, form, tagIds: state.tagIds.filter((id) => known.has(id)) },
      { pollIntervalMs },
    );
    // New (and newly tagged) images: every gallery reads the list again when it is next shown.
    void queryClient.invalidateQueries({ queryKey: LD_IMAGES_QUERY_KEY });
    storageChanged(queryClient);
  }

  async function reloadFrom(image: LdImage) {
    const path = readImageMetadata(image.metadata).inputImagePath;
    const reference = path ? await referenceFromInput(path) : null;
    session.reloadFrom(image, reference);
    setErrors({});
  }

  return (
    <div className="generate">
      <form className="generate-panel" onSubmit={(event) => void submit(event)} noValidate>
        <h1 className="screen-title">{texts.generate}</h1>
        <fieldset className="generate-fields" disabled={busy}>
          <ReferenceUpload
            reference={state.reference}
            disabled={busy}
            error={!state.reference && referenceMissing ? texts.noReference : undefined}
            onFile={(file) => void chooseFile(file)}
          />
          <ParametersSection
            fields={state.fields}
            errors={errors}
            onChange={changeFields}
            engine={engine}
          />
          <TagsSection
            tags={tags}
            isLoading={tagsLoading}
            selected={state.tagIds}
            onToggle={(tagId) => session.toggleTag(tagId)}
          />
        </fieldset>
        <div className="generate-actions">
          <button
            type="submit"
            className="button button-primary generate-submit"
            disabled={busy || !client}
          >
            {busy ? TEXTS.generatingButton(state.percent) : texts.generate}
          </button>
          {busy && state.notice && (
            <p className="generate-notice" role="status">
              {state.notice}
            </p>
          )}
          {state.error && (
            <div className="generate-error" role="alert">
              <p>{state.error.message}</p>
              {state.error.detail && <p className="generate-error-detail">{state.error.detail}</p>}
            </div>
          )}
        </div>
      </form>
      <section className="generate-main" aria-label={texts.generatedImages}>
        <PreviewArea
          image={state.shown}
          busy={busy}
          percent={state.percent}
          onOpen={(image) => setDetails(image)}
        />
        <ResultsStrip
          results={state.results}
          current={state.shown}
          disabled={busy}
          onSelect={(image) => void reloadFrom(image)}
        />
      </section>
      {details && (
        <LdImageDetailsModal
          image={details}
          onClose={() => setDetails(null)}
          seriesFaces={seriesFacesOf(details, state.results)}
        />
      )}
    </div>
  );
}

/** The faces of the image's series among the session's results (issue 25); undefined if single. */
function seriesFacesOf(image: LdImage, results: readonly ResultItem[]): LdImage[] | undefined {
  const face = seriesFaceOf(image);
  if (!face) return undefined;
  const images = results.flatMap((item) => (item.image ? [item.image] : []));
  const faces = facesOfSeries(images, face.seriesId);
  return faces.length > 0 ? faces : undefined;
}

/**
 * /generate?reference=<file>, as "Use as reference" on /input links here: the uploaded
 * reference is fetched and becomes the form's reference, then the parameter leaves the address
 * (so coming back later does not replace a reference chosen since).
 */
function useReferenceFromLink(session: GenerateSession): void {
  const [params, setParams] = useSearchParams();
  const filename = params.get(REFERENCE_PARAM);
  useEffect(() => {
    if (!filename) return;
    let current = true;
    void referenceFromInput(filename).then((reference) => {
      if (!current) return;
      if (reference && !session.getState().busy) session.setReference(reference);
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete(REFERENCE_PARAM);
          return next;
        },
        { replace: true },
      );
    });
    return () => {
      current = false;
    };
  }, [filename, session, setParams]);
}

/**
 * /generate with a remix in the router state ("Use these settings" in Image Details): the
 * image's reference is fetched back, then the form takes it with every parameter and tag of the
 * image. The state is then cleared, so Back or a reload does not apply it again over new edits.
 */
function useRemixFromLink(session: GenerateSession): void {
  const location = useLocation();
  const navigate = useNavigate();
  const remix = remixOf(location.state);
  useEffect(() => {
    if (remix === null) return;
    let current = true;
    const path = readImageMetadata(remix.metadata).inputImagePath;
    void (path ? referenceFromInput(path) : Promise.resolve(null)).then((reference) => {
      if (!current) return;
      // A batch under way keeps its form: the remix waits for none, it is simply not applied.
      if (!session.getState().busy) session.remix(remix.metadata, remix.tags, reference);
      void navigate(location.pathname + location.search, { replace: true, state: null });
    });
    return () => {
      current = false;
    };
    // The remix is read once per navigation (location.key), not per render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
}
