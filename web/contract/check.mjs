// Type-checks the page data the Go server sends against the types the app
// reads it with (src/types.ts, src/admin/data.ts).
//
//   node contract/check.mjs <dir>
//
// <dir> holds what internal/contract's test wrote (VITRINE_CONTRACT_DIR):
// <name>.json, one page's data each, and manifest.json naming the type of
// each. For every page this writes <name>.check.ts beside its JSON,
//
//   import type { ProductPage } from '<web>/src/types';
//   export const data: ProductPage = <the JSON>;
//
// and compiles them all with the app's strict settings. An object literal
// assigned to a type is checked both ways: a field the type lacks is an
// excess property, a required field the data lacks is missing, and a value
// of the wrong type is refused. One more file checks the other direction:
// every page of the PageData union has data in the directory, so a new page
// type cannot skip the contract.

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node contract/check.mjs <dir with manifest.json>');
  process.exit(2);
}
const web = resolve(fileURLToPath(import.meta.url), '../..');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
if (!Array.isArray(manifest) || manifest.length === 0) {
  console.error(`${dir}/manifest.json lists no pages`);
  process.exit(1);
}

const files = [];
const pages = new Set();
for (const { name, type, module } of manifest) {
  const json = readFileSync(join(dir, `${name}.json`), 'utf8');
  const page = JSON.parse(json).page;
  if (typeof page === 'string') pages.add(page);
  const file = join(dir, `${name}.check.ts`);
  writeFileSync(
    file,
    `// ${name}.json as the server sent it, read as ${type}.\n` +
      `import type { ${type} } from ${JSON.stringify(join(web, module))};\n\n` +
      `export const data: ${type} = ${json};\n`,
  );
  files.push(file);
}

// No page of the union goes unchecked: Missing must be never.
const coverage = join(dir, 'coverage.check.ts');
writeFileSync(
  coverage,
  `import type { PageData } from ${JSON.stringify(join(web, 'src/types'))};\n\n` +
    `type Checked = ${[...pages].map((p) => JSON.stringify(p)).join(' | ') || 'never'};\n` +
    `type Missing = Exclude<PageData['page'], Checked>;\n` +
    `// An error here names a page type no data was written for.\n` +
    `export const everyPageChecked: [Missing] extends [never] ? true : Missing = true;\n`,
);
files.push(coverage);

// The app's compiler settings (tsconfig.json), without its test globals.
const program = ts.createProgram(files, {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUnusedLocals: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
});
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  console.error(`page-data contract: ${diagnostics.length} error(s); the Go side and web/src/types.ts disagree (data in ${dir})`);
  process.exit(1);
}
console.log(`page-data contract: ${manifest.length} pages match their TypeScript types`);
