// @vitest-environment node
import { build } from 'esbuild';
import { serverBuildOptions } from '../../server-build.mjs';
import { compileTemplates } from '../../server-templates.mjs';
import { allPages } from '../test/fixtures';
import casesSource from './server-templates.cases.tsx?raw';

/**
 * The server bundle's markup compiler (server-templates.mjs, decision 0136)
 * must change how the HTML is made, never what it is: the app's pages and a
 * set of hard cases are rendered by the bundle built with it and without it,
 * and compared byte for byte.
 */

type Globals = { render?: (url: string, json: string) => string; renderCases?: () => [string, string][] };

async function bundle(entry: string, templates: boolean): Promise<Globals> {
  const out = await build({ ...serverBuildOptions({ entry, templates, write: false }), outfile: 'out.js', logLevel: 'silent' });
  // The bundle sets its functions on globalThis: here an object of its own.
  const own: Globals = {};
  new Function('globalThis', out.outputFiles![0].text)(own);
  return own;
}

describe('the server’s markup templates', () => {
  it('write the hard cases as the renderer writes their elements', async () => {
    const [plain, compiled] = await Promise.all([bundle('src/lib/server-templates.cases.tsx', false), bundle('src/lib/server-templates.cases.tsx', true)]);
    const want = plain.renderCases!();
    const got = compiled.renderCases!();
    expect(got.map(([name]) => name)).toEqual(want.map(([name]) => name));
    for (let i = 0; i < want.length; i++) expect({ name: got[i][0], html: got[i][1] }).toEqual({ name: want[i][0], html: want[i][1] });
    // The cases are compiled, not left as elements: most of their markup is in templates.
    const { code, compiled: count } = compileTemplates(casesSource, 'cases.tsx', 'helpers');
    expect(count).toBeGreaterThanOrEqual(10);
    expect(code).toContain('<label for=\\"f\\">Label</label>');
    // Event handlers are left out at build time: the renderer skips functions.
    expect(code).not.toMatch(/__tpl_attr\("on[A-Z]/);
  }, 60_000);

  it('write every page of the app byte for byte as before, cold and warm', async () => {
    const [plain, compiled] = await Promise.all([bundle('src/entry-server.tsx', false), bundle('src/entry-server.tsx', true)]);
    for (let round = 0; round < 2; round++) {
      for (const [name, data] of allPages()) {
        const url = (data as { url?: string }).url ?? '/';
        const json = JSON.stringify(data);
        const want = plain.render!(url, json);
        expect(want.length, name).toBeGreaterThan(1000);
        expect({ name, html: compiled.render!(url, json) }).toEqual({ name, html: want });
      }
    }
  }, 60_000);

  it('leave an element passed to a component, or kept in a variable, an element', () => {
    const { code } = compileTemplates(
      `export const A = () => { const kept = <b>kept</b>; return <div><Wrap><p>child</p></Wrap>{kept}<Wrap label={<i>prop</i>} /></div>; };`,
      'a.tsx',
      'helpers',
    );
    expect(code).toContain('<b>kept</b>');
    expect(code).toContain('<p>child</p>');
    expect(code).toContain('<i>prop</i>');
    expect(code).toMatch(/__tpl_s0 = \["<div>", "", "", "<\/div>"\]/);
  });
});
