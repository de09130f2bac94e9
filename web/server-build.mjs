// The server bundle's build options, shared by build-server.mjs and the
// template compiler's test (src/lib/server-templates.test.ts).
import { fileURLToPath } from 'node:url';
import { preactEsbuildAlias } from './preact-aliases.mjs';
import { serverTemplates } from './server-templates.mjs';

const src = fileURLToPath(new URL('./src/', import.meta.url));

/**
 * One IIFE for QuickJS. templates: the app's host markup compiled into
 * templates (server-templates.mjs); off, the JSX makes elements as in the
 * browser.
 */
export function serverBuildOptions({ entry = 'src/entry-server.tsx', outfile, templates = true, write = true } = {}) {
  return {
    absWorkingDir: fileURLToPath(new URL('.', import.meta.url)),
    entryPoints: [entry],
    outfile,
    write,
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
    plugins: templates ? [serverTemplates({ src, helpers: src + 'lib/server-template.ts' })] : [],
  };
}
