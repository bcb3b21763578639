import type { Generated } from 'kysely';

/** The tables as Kysely sees them; migrations/ creates them. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  images: ImagesTable;
  tags: TagsTable;
  image_tags: ImageTagsTable;
  jobs: JobsTable;
  credential_changes: CredentialChangesTable;
  job_queue_pauses: JobQueuePausesTable;
  material_maps: MaterialMapsTable;
  rate_limits: RateLimitsTable;
  zip_downloads: ZipDownloadsTable;
  instances: InstancesTable;
  input_references: InputReferencesTable;
  print_files: PrintFilesTable;
  audit_events: AuditEventsTable;
  retention_runs: RetentionRunsTable;
  quota_defaults: QuotaDefaultsTable;
  api_tokens: ApiTokensTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
  /** Raised by triggers on every change to the user's images or their tags (migration 0022). */
  images_version: Generated<number>;
  /** Raised by triggers on every change to the user's tags (migration 0030). */
  tags_version: Generated<number>;
  /** 'admin' or 'member' (migration 0023). */
  role: Generated<string>;
  /** Set while an admin has disabled the user: no sign-in, no broker connection. */
  disabled_at: Generated<string | null>;
  /** Set once the user was removed with their images kept: never signs in again. */
  retired_at: Generated<string | null>;
  /** The last sign-in or request, written at most every few minutes. */
  last_seen_at: Generated<string | null>;
  /** The user's own quotas (migration 0025); null follows the default. bigint: text on PostgreSQL. */
  storage_quota_bytes: Generated<number | string | bigint | null>;
  max_queued_previews: Generated<number | null>;
  max_queued_hd: Generated<number | null>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database file yields no usable session. */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  /** SHA-256 of the session's messaging secret (broker logins without scrypt); null: none. */
  messaging_secret_hash: Generated<string | null>;
  /**
   * A single sign-on session's ID token from its provider (0029), sent back as `id_token_hint`
   * when the session signs out (RP-initiated logout); null for a password session.
   */
  id_token: Generated<string | null>;
}

export interface ImagesTable {
  id: Generated<number>;
  owner_id: number;
  kind: 'ld' | 'hd';
  filename: string;
  source_image_id: number | null;
  width: number;
  height: number;
  bytes: number;
  /** JSON text: the generation parameters the image was made with. */
  metadata: string;
  created_at: string;
  // What a search matches (migration 0009), from the metadata; the repository fills them in.
  prompt_key: Generated<string>;
  seed_key: Generated<string | null>;
  dated_at: Generated<string>;
  /** 1 when the owner starred the image. */
  starred: Generated<number>;
  /** HD: when the retention policy removed the file (migration 0024); null while it is there. */
  hd_removed_at: Generated<string | null>;
  /** HD: the policy's removal, 'pending' before the file goes and 'done' after; null: none. */
  hd_removal: Generated<'pending' | 'done' | null>;
}

export interface TagsTable {
  owner_id: number;
  id: string;
  name: string;
  color: string;
  created_at: string;
  /** Creation order among the owner's tags: breaks ties of created_at (migration 0013). */
  seq: Generated<number>;
}

export interface ImageTagsTable {
  image_id: number;
  owner_id: number;
  tag_id: string;
}

export interface JobsTable {
  id: Generated<number>;
  public_id: string;
  owner_id: number;
  kind: string;
  status: 'queued' | 'in_progress' | 'finished' | 'error' | 'cancelled';
  percent: number;
  /** JSON text: what the job's handler needs. */
  params: string;
  output: string | null;
  error: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  dedupe_key: string | null;
  /** When the job was last taken to run: the round-robin turn of its owner. */
  claimed_at: string | null;
  /** The prompt the running job queued on a ComfyUI server, picked up again after a restart. */
  prompt_server: string | null;
  prompt_id: string | null;
  prompt_client_id: string | null;
  created_at: string;
  updated_at: string;
  /** The job's rank among its owner's queued jobs: lower runs first, ties in arrival order. */
  queue_order: Generated<number>;
  /** The process running the job (jobs/lease.ts), while it runs. */
  lease_holder: string | null;
  /** Until when the holder's lease runs unless renewed; past it, the job is claimed again. */
  lease_expires_at: string | null;
  /** What the running job waits for now, for its owner to read (migration 0018). */
  notice: string | null;
}

/** An owner who paused their queue of a kind: none of those queued jobs is claimed meanwhile. */
export interface JobQueuePausesTable {
  owner_id: number;
  kind: string;
  paused_at: string;
}

/** A password changed or a user was removed: servers end that user's connections. */
export interface CredentialChangesTable {
  seq: Generated<number>;
  username: string;
  changed_at: string;
}

export interface MaterialMapsTable {
  id: Generated<number>;
  owner_id: number;
  image_id: number;
  map: string;
  filename: string;
  bytes: number;
  preview_filename: string;
  /** 1 when the maps were made with wrap-around edges (a seamless texture). */
  seamless: number;
  created_at: string;
  /** 1 when the height was read inverted, dark high (migration 0020). */
  height_invert: number;
  /** The height's strength, 0.25 to 4 (migration 0020). */
  height_strength: number;
}

/** One key's count in its current window (login throttling, command rates); migration 0014. */
export interface RateLimitsTable {
  key: string;
  points: number;
  /** Milliseconds since the epoch when the window ends (a string or bigint on some drivers). */
  expires_at: number | string | bigint;
}

/** A ZIP download ticket, shared by every server process; migration 0014. */
export interface ZipDownloadsTable {
  token_hash: string;
  owner_id: number;
  kind: string;
  /** JSON text: the file names. */
  names: string;
  filename: string;
  state: 'waiting' | 'sending' | 'sent' | 'failed';
  sent: number | string | bigint;
  total: number | string | bigint | null;
  error: string | null;
  expires_at: number | string | bigint;
}

/** A server or worker process running now (its INSTANCE_NAME); migration 0014. */
export interface InstancesTable {
  name: string;
  role: string;
  /** Milliseconds since the epoch of its last sign of life. */
  heartbeat_at: number | string | bigint;
}

/** An uploaded reference file and the SHA-256 of its bytes; migration 0017. */
export interface InputReferencesTable {
  seq: Generated<number>;
  owner_id: number;
  filename: string;
  sha256: string;
  created_at: string;
}

/** A finished print file of an HD image (issue 26, part 1); migration 0019. */
export interface PrintFilesTable {
  id: Generated<number>;
  owner_id: number;
  /** The HD image it was made from. */
  image_id: number;
  /** The public id of the `print` job that made it. */
  job_id: string;
  /** JSON text: the PrintSettings it was ordered with. */
  settings: string;
  filename: string;
  /** bigint: a print file may pass 2 GiB (PostgreSQL answers it as text). */
  bytes: number | string | bigint;
  width: number;
  height: number;
  created_at: string;
}

/** Who did what, when, from where (issue 29, part 5); migration 0023. */
export interface AuditEventsTable {
  id: Generated<number>;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  /** JSON text: the action's particulars. */
  details: string;
  address: string | null;
}

/** One day's run of the HD retention policy, claimed by the process that inserted it; 0024. */
export interface RetentionRunsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  holder: string;
  started_at: string;
  finished_at: string | null;
  removed: number | null;
  bytes: number | string | bigint | null;
}

/** The admin-set default quotas, in one row (id 1); migration 0025. No row: the configuration's. */
export interface QuotaDefaultsTable {
  id: number;
  /** null: no storage limit. */
  storage_bytes: number | string | bigint | null;
  max_queued_previews: number;
  max_queued_hd: number;
  updated_at: string;
}

/** A personal API token (issue 30, part 1); migration 0026. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Comma-separated scopes: 'read,generate'. */
  scopes: string;
  /** SHA-256 of the secret (base64url): the secret itself is never stored. */
  token_hash: string;
  created_at: string;
  /** null: never expires. */
  expires_at: string | null;
  /** Written at most every few minutes; null: never used. */
  last_used_at: Generated<string | null>;
}

/** A webhook endpoint (migration 0027). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  public_id: string;
  owner_id: number;
  /** 'own': the owner's events; 'all': every user's (an admin's). */
  scope: string;
  url: string;
  /** The event types asked for, each between spaces. */
  events: string;
  /** 1 active, 0 paused. */
  active: number;
  secret: string;
  created_at: string;
  updated_at: string;
  /** The secret the last rotation replaced, still signing until `previous_secret_until` (0028). */
  previous_secret: Generated<string | null>;
  previous_secret_until: Generated<string | null>;
}

/** One event for one endpoint: the outbox row its tries are made from. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  message_id: string;
  event_type: string;
  body: string;
  /** 'pending' | 'sending' | 'delivered' | 'failed'. */
  state: string;
  attempts: Generated<number>;
  /** Null: due now. */
  next_attempt_at: string | null;
  window_start: string;
  lease_holder: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: string;
  status: number | null;
  error: string | null;
}
