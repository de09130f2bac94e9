import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { preactAliases } from './preact-aliases.mjs';

// The browser build loads the less visited pages on demand: split/pages.ts
// (static, for the server bundle and the tests) becomes split/pages.client.ts
// (React.lazy chunks). Vitest (mode "test") keeps the static one.
const splitPages = {
  find: /^(\.{1,2}\/)+split\/pages$/,
  replacement: decodeURIComponent(new URL('./src/split/pages.client.ts', import.meta.url).pathname),
};

const testingLibrary = {
  find: /^@testing-library\/react$/,
  replacement: decodeURIComponent(new URL('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js', import.meta.url).pathname),
};

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  base: '/',
  resolve: { alias: mode === 'test' ? [testingLibrary, ...preactAliases] : [splitPages, ...preactAliases] },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      // The storefront, and the admin (a separate entry: no storefront page
      // loads it; only what both import, such as React, is shared).
      input: ['src/entry-client.tsx', 'src/admin/main.tsx'],
      output: {
        // The runtime (Preact, its hooks, compat and JSX runtime) is one
        // chunk of its own, which both entries share and which changes only
        // with Preact's version: no page's or the layout's code is in it, so
        // a deploy that changes the app leaves it cached. The rest is split
        // by route: the entry holds the frame every page has (layout,
        // header, mini-cart), each page type is a chunk (split/pages.ts).
        codeSplitting: {
          groups: [{ name: 'preact', test: /[\\/]node_modules[\\/]preact[\\/]/ }],
        },
      },
    },
  },
  test: {
    globals: true,
    environment: 'jsdom',
    // calendar.ts first: with VITRINE_TEST_DATE set, the suite runs on that day.
    setupFiles: ['src/test/calendar.ts', 'src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Packages that import React run through Vite, so that the aliases give
    // them Preact too (Node would load the real React for them); the
    // testing library through its ES module build (its CommonJS one
    // requires React past the aliases).
    server: { deps: { inline: [/@testing-library\/react/, /embla-carousel-react/, /yet-another-react-lightbox/] } },
  },
}));
