// Builds dist/server/server.js: one IIFE for QuickJS that sets globalThis.render(url, json).
import { build } from 'esbuild';
import { preactEsbuildAlias } from './preact-aliases.mjs';

const started = Date.now();
await build({
  entryPoints: ['src/entry-server.tsx'],
  outfile: 'dist/server/server.js',
  bundle: true,
  format: 'iife',
  platform: 'neutral',
  mainFields: ['browser', 'module', 'main'],
  conditions: ['browser', 'default'],
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  alias: preactEsbuildAlias,
  define: { 'process.env.NODE_ENV': '"production"' },
  // CSS is served by the client build; the server only needs markup.
  loader: { '.css': 'empty' },
  // The bot-check widget is imported lazily by the browser only (on a
  // login or registration submit); the server render never runs it.
  external: ['altcha'],
  legalComments: 'none',
  logLevel: 'info',
});
console.log(`server bundle built in ${Date.now() - started} ms`);
