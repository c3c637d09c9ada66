export type { ErrorCodeInfo } from './error-code-info.js';
export { errorCodes } from './error-codes.js';
export { publicError, type PublicError } from './public-error.js';
export { parseInput } from './parse-input.js';
