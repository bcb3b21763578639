// Business constants of SPEC §9 that both the server and the web app apply.

/** Images per page when the gallery lists a user's images. */
export const IMAGE_PAGE_SIZE = 100;
/** Tags per page when the tags panel lists a user's tags. */
export const TAG_PAGE_SIZE = 10;
/** Largest page a list command may ask for, so a client cannot make the server read everything. */
export const MAX_PAGE_SIZE = 500;
/**
 * Tags one user may have (beyond the spec): ten times what a large library uses, and a page of
 * the largest size lists them all; without a cap one user could fill the database with tags.
 */
export const MAX_TAGS_PER_USER = 500;
/** Interval between status polls during preview generation and HD upscaling. */
export const POLL_INTERVAL_MS = 3000;
/** How long a messaging request waits for its response before it is rejected. */
export const MQTT_RESPONSE_TIMEOUT_MS = 50_000;
/** Connect timeout of the messaging client. */
export const MQTT_CONNECT_TIMEOUT_MS = 4000;
/** No command comes near this; a larger payload is refused before it is parsed. */
export const MAX_COMMAND_BYTES = 64 * 1024;

/** Largest uploaded image area (SPEC §5): about 4096 x 4096. */
export const UPLOAD_MAX_PIXELS = 17_000_000;
