// Shapes of the HTTP API of SPEC §7, parsed by the server on receipt and by the app on answer.
import { z } from 'zod';
import { userRoleSchema } from './admin.js';
import { GENERATION_STATUSES } from './status.js';

/**
 * Usernames become MQTT topic levels (command/{action}/user/{username}) and folder names, so
 * they may not hold '/', '+', '#' or '$', nor anything else a topic or a file path would trip
 * on; '.' and '..' alone would name the files folder itself or its parent.
 */
export const USERNAME_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,64}$/;

export function isValidUsername(name: string): boolean {
  return USERNAME_PATTERN.test(name);
}

/** The cookie that carries the session: set by POST /api/login, HttpOnly and SameSite=Strict. */
export const SESSION_COOKIE = 'tessera_session';

export const titleResponseSchema = z.object({ title: z.string() });
export const themeResponseSchema = z.object({ theme: z.string() });

/**
 * The MQTT protocol versions the browser may speak, as mqtt.js numbers them: 4 is MQTT 3.1.1
 * (the embedded broker, Aedes, speaks nothing newer), 5 is MQTT 5 (an external Mosquitto).
 */
export const MQTT_PROTOCOL_VERSIONS = [4, 5] as const;
export type MqttProtocolVersion = (typeof MQTT_PROTOCOL_VERSIONS)[number];
/** What a client assumes when the server does not say: every broker speaks MQTT 3.1.1. */
export const DEFAULT_MQTT_PROTOCOL_VERSION: MqttProtocolVersion = 4;

/**
 * SPEC §7's `url`, plus the protocol version the broker speaks. The addition is optional, so an
 * answer without it still parses (as MQTT 3.1.1).
 */
export const brokerUrlResponseSchema = z.object({
  url: z.string(),
  protocolVersion: z
    .union([z.literal(4), z.literal(5)])
    .optional()
    .default(DEFAULT_MQTT_PROTOCOL_VERSION),
});

/** GET /api/session (beyond the spec): who the session cookie belongs to; 401 without one. */
/**
 * Who is signed in, and their role (issue 29): the web shows the admin screens to admins only.
 * The role is absent only in what the login screen keeps until the session is read again.
 */
export const sessionResponseSchema = z.object({
  username: z.string(),
  role: userRoleSchema.optional(),
});

// No pattern check on the username: login is not validated on the client (SPEC §5), and a
// name that is no account simply fails to sign in.
export const loginRequestSchema = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});

/**
 * POST /api/login's success body (the spec shows none): the user, and on the embedded broker a
 * messaging secret the tab logs in to the broker with instead of the password (issue 22, part
 * 3); it lives as long as the session. Without it (an external broker) the password is used.
 */
export const loginResponseSchema = z.object({
  username: z.string(),
  messagingSecret: z.string().optional(),
});

export const errorResponseSchema = z.object({ error: z.string() });

export const generationStatusResponseSchema = z.object({
  status: z.enum(GENERATION_STATUSES),
  percent: z.number().min(0).max(100),
  output_image: z.string().optional(),
  /**
   * Beyond the spec, with status 'in_progress' only: what the job waits for now, for the user to
   * read (the image storage unreachable, retrying; issue 23, part 11), as HdStatusMessage.notice.
   * Absent once it goes on. A spec client reads the three fields above and ignores it.
   */
  notice: z.string().optional(),
});

export type TitleResponse = z.infer<typeof titleResponseSchema>;
export type ThemeResponse = z.infer<typeof themeResponseSchema>;
export type BrokerUrlResponse = z.infer<typeof brokerUrlResponseSchema>;
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
export type LoginRequest = z.infer<typeof loginRequestSchema>;
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
export type GenerationStatusResponse = z.infer<typeof generationStatusResponseSchema>;

// Beyond the spec: the HD queue page (/upscale) and the references library (/input).

/** One of the user's HD jobs, as GET /api/query/hd-jobs lists them (newest first). */
export const hdJobSchema = z.object({
  /** The id the generate-image command carried (the status messages' id). */
  id: z.string(),
  /** The LD image ordered in HD. */
  image: z.string(),
  /** The ordered size label (contract HD_SIZES), e.g. '120x240'. */
  size: z.string(),
  status: z.enum([...GENERATION_STATUSES, 'cancelled']),
  percent: z.number().min(0).max(100),
  /** The HD file, once finished. */
  output_image: z.string().optional(),
  error: z.string().optional(),
  created_at: z.string(),
  /** A queued job's place in the user's own queue: 1 starts next (when the user's turn comes). */
  position: z.number().int().positive().optional(),
});
/** The answer of GET /api/query/hd-jobs and of the queue commands. */
export const hdJobsResponseSchema = z.object({
  jobs: z.array(hdJobSchema),
  /** The user paused their queue: queued jobs wait until resumed. */
  paused: z.boolean(),
});

const hdJobIdSchema = z.string().min(1).max(128);

/** POST /api/command/cancel-hd-job: cancels a queued HD job (409 once it runs or ended). */
export const cancelHdJobRequestSchema = z.object({ id: hdJobIdSchema });
/** POST /api/command/move-hd-job-to-top: the queued job runs next (409 once it runs or ended). */
export const moveHdJobRequestSchema = z.object({ id: hdJobIdSchema });

/** One uploaded reference, with the LD images generated from it (GET /api/query/inputs). */
export const inputImageSchema = z.object({
  /** Served by GET /api/images/input/{filename}. */
  filename: z.string(),
  created_at: z.string(),
  /** LD image file names made from this reference, newest first. */
  images: z.array(z.string()),
});
export const inputsResponseSchema = z.object({ inputs: z.array(inputImageSchema) });

export type HdJob = z.infer<typeof hdJobSchema>;
export type HdJobsResponse = z.infer<typeof hdJobsResponseSchema>;
export type CancelHdJobRequest = z.infer<typeof cancelHdJobRequestSchema>;
export type MoveHdJobRequest = z.infer<typeof moveHdJobRequestSchema>;
export type InputImage = z.infer<typeof inputImageSchema>;
export type InputsResponse = z.infer<typeof inputsResponseSchema>;
