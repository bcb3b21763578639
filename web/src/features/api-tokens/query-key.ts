/** The tokens list's cache: read again after a token is made or revoked. */
export const API_TOKENS_QUERY_KEY = ['api-tokens'] as const;
