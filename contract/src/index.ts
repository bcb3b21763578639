// The contract: every rule the server and the web app both apply, written once.
export * from './constants.js';
export * from './dates.js';
export * from './file-name.js';
export * from './formats.js';
export * from './generation.js';
export * from './hd-sizes.js';
export * from './http.js';
export * from './messages.js';
export * from './metadata.js';
export * from './numbers.js';
export * from './search.js';
export * from './status.js';
export * from './tags.js';
export * from './texts.js';
export * from './topics.js';
export * from './upload.js';
export * from './zip.js';
