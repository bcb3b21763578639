import type {
  HdFactors,
  HdSizeLabel,
  HeightSettings,
  PreviewSettings,
  PrintSettings,
} from '@tessera/contract';
import type { Owner } from '../owner.js';

/**
 * What a preview (LD) job needs, stored with the job so a restart can run it again: the settings
 * (kept flat, as stored jobs have them) and where the reference is.
 */
export interface PreviewJobParams extends PreviewSettings {
  owner: Owner;
  /** The reference image, kept in the owner's input area. */
  inputFile: string;
  /** The file name the browser gave the reference; the LD image is named after it. */
  originalName: string;
  /** A series of this many faces (issue 25); absent (jobs stored before series) or 1: one image. */
  faces?: number;
}

/** What an HD job needs, stored with the job so a restart can run it again. */
export interface HdJobParams {
  owner: Owner;
  /** The LD image ordered in HD. */
  image: string;
  size: HdSizeLabel;
  factors: HdFactors;
  seed: number;
}

/** What a material-maps job needs (issue 17, part 5): the image, by gallery and name. */
export interface MapsJobParams {
  owner: Owner;
  kind: 'ld' | 'hd';
  image: string;
  /** How the height is read (issue 26, part 4); absent in jobs stored before: the defaults. */
  height?: HeightSettings;
}

/** What a print-file job needs (issue 26, part 1): the HD image, by name, and the settings. */
export interface PrintJobParams {
  owner: Owner;
  image: string;
  settings: PrintSettings;
}

/** Every kind of job and its params: a new kind is a line here, then a handler and a policy. */
interface ParamsOfKind {
  preview: PreviewJobParams;
  hd: HdJobParams;
  maps: MapsJobParams;
  print: PrintJobParams;
}

export type JobKind = keyof ParamsOfKind;

/** The kinds at run time, for the checks the type cannot make (rows read back, start-up). */
export const JOB_KINDS: readonly JobKind[] = ['preview', 'hd', 'maps', 'print'];

export function isJobKind(kind: string): kind is JobKind {
  return (JOB_KINDS as readonly string[]).includes(kind);
}

/** A kind with its params: the discriminated union every job is typed by. */
export type JobSpec<K extends JobKind = JobKind> = {
  [P in K]: { kind: P; params: ParamsOfKind[P] };
}[K];

/** 'cancelled' is the owner's doing, and only a queued job can get there. */
export type JobStatus = 'queued' | 'in_progress' | 'finished' | 'error' | 'cancelled';

/**
 * A prompt queued on a remote image server (ComfyUI): where, its id, its websocket client id.
 * Noted with the job, so that after a restart the engine picks it up instead of running the same
 * GPU work again (engines see it as RemoteWork.previous).
 */
export interface RemotePrompt {
  server: string;
  promptId: string;
  clientId: string;
}

/** Where a job stands in the queue, whatever its kind. */
export interface JobState {
  id: number;
  publicId: string;
  ownerId: number;
  status: JobStatus;
  percent: number;
  output: string | null;
  error: string | null;
  attempts: number;
  maxAttempts: number;
  runAfter: string;
  dedupeKey: string | null;
  createdAt: string;
  /** Rank among the owner's queued jobs: lower runs first, ties in arrival order. */
  queueOrder: number;
  /** The prompt the job queued on a remote image server and has not seen to its end. */
  remotePrompt: RemotePrompt | null;
  /**
   * Only on a running job: what its run waits for now, for the user to read (the image storage
   * unreachable, retrying; issue 23, part 11). Stored with the job (JobQueue.noteWaiting), so a
   * status read in another process than the one running it sees it too.
   */
  notice?: string;
}

/** A job of the queue; narrowing on `kind` types its params. */
export type JobRecord<K extends JobKind = JobKind> = JobState & JobSpec<K>;

/** A job as a service orders it: the runner adds its kind's attempts and limits. */
export type JobOrder<K extends JobKind = JobKind> = {
  publicId: string;
  ownerId: number;
  dedupeKey?: string;
} & JobSpec<K>;

/** A job as the queue stores it. */
export type NewJob<K extends JobKind = JobKind> = JobOrder<K> & {
  maxAttempts: number;
  /** The owner may have at most this many live (queued or running) jobs of the kind. */
  maxLivePerOwner?: number;
  /** The user's own queue quota, or the admin-set default, overrides `maxLivePerOwner`. */
  ownerQuota?: 'preview' | 'hd';
};
