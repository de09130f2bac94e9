// Builds dist/server/server.js: one IIFE for QuickJS that sets globalThis.render(url, json).
import { build } from 'esbuild';
import { serverBuildOptions } from './server-build.mjs';

const started = Date.now();
await build(serverBuildOptions({ outfile: 'dist/server/server.js' }));
console.log(`server bundle built in ${Date.now() - started} ms`);
