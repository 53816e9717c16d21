// Bundles the CLI into dist/cli/main.js with esbuild (the compiler tsx already uses): no TypeScript
// transform at start-up, and a smaller process. Dependencies stay external (node_modules).
// Runs on `npm ci` (prepare) and before `npm start` (prestart), in about a tenth of a second.
import { build } from 'esbuild';

await build({
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  // Dynamic imports stay separate chunks: the type generator (and the TypeScript compiler it
  // loads) is read only when --types asks for it.
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
