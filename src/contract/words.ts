// The words of every message live in one place, shared by all layers (src/openapi/words.ts).
export { count, formatBytes } from '../openapi/words.js';
