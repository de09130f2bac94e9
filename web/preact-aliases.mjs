// The app is written against React's API and runs on Preact through
// preact/compat, in the browser, in the server render and in the unit tests
// alike (docs/decisions/0093-preact-runtime.md). TypeScript still checks the
// code against React's types; these aliases pick the runtime at build time.
// Ordered most specific first: the bundlers take the first match.

export const preactAliases = [
  { find: /^react-dom\/server(\.browser)?$/, replacement: 'preact/compat/server.browser' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: 'preact/compat' },
];

// esbuild's alias option takes package names, not patterns.
export const preactEsbuildAlias = {
  'react-dom/server.browser': 'preact/compat/server.browser',
  'react-dom/server': 'preact/compat/server.browser',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
  'react-dom': 'preact/compat',
  react: 'preact/compat',
};

