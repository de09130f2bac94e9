// The server build's markup compiler (docs/decisions/0136-server-markup-precompiled.md).
//
// A tree of host elements (and fragments) in JSX becomes one template for
// preact-render-to-string: its fixed markup as strings, computed here, and a
// hole for each value (an attribute, a child), written at render time by
// src/lib/server-template.ts exactly as the renderer writes the same prop or
// child. Only the server bundle is compiled this way; the browser's JSX is
// untouched, so hydration compares the browser's elements with the same HTML.
//
// Left as elements, whole (their host children may still be templates):
// - elements the renderer treats apart: select, option and textarea (their
//   values), svg and what is inside it (its attribute names), a custom
//   element, a namespaced tag;
// - an element with a spread, a namespaced attribute, children passed as a
//   prop, a style, a text or an attribute value holding an entity (`&…;`,
//   decoded by the JSX compiler), or both class and className (or for and
//   htmlFor);
// - an element that is not written straight into markup: one passed to a
//   component as its child or a prop, or kept in a variable, may be read or
//   cloned there (Tooltip clones its child). A tree is compiled where it is
//   a host element's child, a fragment's, or what a function returns.
import { readFile } from 'node:fs/promises';
import ts from 'typescript';
// The renderer's escaping, as the runtime's holes use it (Node strips the file's types).
import { escapeHtml } from './src/lib/html.ts';

const VOID = new Set(['area', 'base', 'br', 'col', 'command', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
// HTML's elements but select, option and textarea: SVG's and MathML's have other attribute names.
const HTML = new Set(('a abbr address area article aside audio b bdi bdo blockquote br button canvas caption cite code col colgroup ' +
  'data datalist dd del details dfn dialog div dl dt em fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr i ' +
  'iframe img input ins kbd label legend li link main mark menu meta meter nav noscript object ol optgroup output p picture pre progress q rp rt ' +
  'ruby s samp search section small source span strong sub summary sup table tbody td template tfoot th thead time tr track u ul var ' +
  'video wbr').split(' '));
// The renderer's attribute-name rules (preact-render-to-string), applied here once.
const UNSAFE_NAME = /[\s\n\\/='"\0<>]/;
const NAMESPACE = /^(xlink|xmlns|xml)([A-Z])/;
const LOWER_CASE = /^(?:accessK|auto[A-Z]|cell|ch|col|cont|cross|dateT|encT|form[A-Z]|frame|hrefL|inputM|maxL|minL|noV|playsI|popoverT|readO|rowS|src[A-Z]|tabI|useM|item[A-Z])/;
const ENUMERATED = new Set(['draggable', 'spellcheck']);

/** A JSX text's content as the JSX compiler makes it (lines trimmed and joined), or null when it holds an entity. */
function jsxText(raw) {
  if (raw.includes('&')) return null;
  const lines = raw.split(/\r\n|\n|\r/);
  let last = 0;
  lines.forEach((l, i) => {
    if (/[^ \t]/.test(l)) last = i;
  });
  let out = '';
  lines.forEach((l, i) => {
    let t = l.replace(/\t/g, ' ');
    if (i !== 0) t = t.replace(/^[ ]+/, '');
    if (i !== lines.length - 1) t = t.replace(/[ ]+$/, '');
    if (t) {
      if (i !== last) t += ' ';
      out += t;
    }
  });
  return out;
}

/** Each child's text (JSX text as jsxText makes it, '' for the others), or null when a text holds an entity. */
function childTexts(children) {
  const texts = children.map((c) => (ts.isJsxText(c) ? jsxText(c.text) : ''));
  return texts.includes(null) ? null : texts;
}

function tagName(node) {
  const t = ts.isJsxElement(node) ? node.openingElement.tagName : node.tagName;
  return ts.isIdentifier(t) ? t.text : null;
}

function isHost(node) {
  if (!ts.isJsxElement(node) && !ts.isJsxSelfClosingElement(node)) return false;
  const name = tagName(node);
  return name !== null && /^[a-z]/.test(name);
}

/** The attribute plan of an element, or null when it stays an element. */
function attributes(node) {
  const opening = ts.isJsxElement(node) ? node.openingElement : node;
  const props = opening.attributes.properties;
  const names = new Set();
  for (const p of props) {
    if (!ts.isJsxAttribute(p) || !ts.isIdentifier(p.name)) return null; // spread, namespaced
    names.add(p.name.text);
  }
  if ((names.has('class') && names.has('className')) || (names.has('for') && names.has('htmlFor'))) return null;
  if (names.has('children') || names.has('style')) return null;
  const out = [];
  let inner = null;
  for (const p of props) {
    let name = p.name.text;
    switch (name) {
      case 'key':
      case 'ref':
      case '__self':
      case '__source':
        continue;
      case 'dangerouslySetInnerHTML':
        if (!p.initializer || !ts.isJsxExpression(p.initializer) || !p.initializer.expression) return null;
        inner = p.initializer.expression;
        continue;
      case 'htmlFor':
        name = 'for';
        break;
      case 'className':
        name = 'class';
        break;
      case 'defaultChecked':
        name = 'checked';
        break;
      case 'defaultSelected':
        name = 'selected';
        break;
      case 'defaultValue':
        name = 'value';
        break;
      case 'acceptCharset':
        name = 'accept-charset';
        break;
      case 'httpEquiv':
        name = 'http-equiv';
        break;
    }
    let str = false;
    if (UNSAFE_NAME.test(name)) continue;
    // An event handler is a function (the types say so), which the renderer skips.
    if (/^on[A-Z]/.test(name) && p.initializer && ts.isJsxExpression(p.initializer)) continue;
    if (NAMESPACE.test(name)) name = name.replace(NAMESPACE, '$1:$2').toLowerCase();
    else if (name[4] === '-' || ENUMERATED.has(name)) str = true;
    else if (LOWER_CASE.test(name)) name = name.toLowerCase();
    const init = p.initializer;
    if (!init) {
      out.push({ text: ' ' + name }); // <input disabled>: true
    } else if (ts.isStringLiteral(init)) {
      if (init.text.includes('&')) return null;
      out.push({ text: init.text === '' ? ' ' + name : ' ' + name + '="' + escapeHtml(init.text) + '"' });
    } else if (ts.isJsxExpression(init) && init.expression) {
      out.push({ name, str, expr: init.expression });
    } else {
      return null;
    }
  }
  return { attrs: out, inner };
}

/** Whether an element is inside an svg written around it. */
function inSvg(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isJsxElement(p) && tagName(p) === 'svg') return true;
  }
  return false;
}

/** Whether a host element sits where its element is written straight into markup. */
function inMarkup(node) {
  let n = node;
  for (;;) {
    const p = n.parent;
    if (!p) return false;
    if (ts.isParenthesizedExpression(p) || (ts.isConditionalExpression(p) && p.condition !== n)) {
      n = p;
      continue;
    }
    if (ts.isBinaryExpression(p) && p.right === n && ['&&', '||', '??'].includes(ts.tokenToString(p.operatorToken.kind))) {
      n = p;
      continue;
    }
    if (ts.isJsxExpression(p)) {
      const owner = p.parent;
      return ts.isJsxFragment(owner) || (ts.isJsxElement(owner) && isHost(owner));
    }
    if (ts.isJsxFragment(p)) return true;
    if (ts.isJsxElement(p)) return isHost(p);
    return ts.isReturnStatement(p) || (ts.isArrowFunction(p) && p.body === n);
  }
}

/**
 * Compiles a TSX source's markup into templates. Returns the source
 * unchanged when it has none. `helpers` is the import path of
 * src/lib/server-template.ts.
 */
export function compileTemplates(source, fileName, helpers) {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const f = ts.factory;
  const hoisted = [];
  let compiled = 0;

  // Writes node's markup into parts (strings and holes); false if it cannot.
  function write(node, parts, visit) {
    const name = tagName(node); // a host element's (the callers check)
    if (!HTML.has(name) || inSvg(node)) return false;
    const plan = attributes(node);
    if (plan === null) return false;
    const children = ts.isJsxElement(node) ? node.children : [];
    const texts = childTexts(children);
    if (texts === null) return false;
    const hasChildren = children.some((c, i) => (ts.isJsxText(c) ? texts[i] !== '' : !ts.isJsxExpression(c) || c.expression));
    if (VOID.has(name) && (hasChildren || plan.inner)) return false;
    if (plan.inner && hasChildren) return false;
    parts.push('<' + name);
    for (const a of plan.attrs) {
      if (a.text !== undefined) parts.push(a.text);
      else parts.push(call('attr', [f.createStringLiteral(a.name), visit(a.expr), a.str ? f.createTrue() : f.createFalse()]));
    }
    if (VOID.has(name)) {
      parts.push('/>');
      return true;
    }
    parts.push('>');
    if (plan.inner) parts.push(call('html', [visit(plan.inner)]));
    writeChildren(children, texts, parts, visit);
    parts.push('</' + name + '>');
    return true;
  }

  // Writes children (their texts from childTexts) into parts.
  function writeChildren(children, texts, parts, visit) {
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (ts.isJsxText(c)) {
        parts.push(escapeHtml(texts[i]));
      } else if (ts.isJsxExpression(c)) {
        const e = c.expression;
        if (!e) continue;
        if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) parts.push(escapeHtml(e.text));
        else parts.push(call('text', [visit(e)]));
      } else if (isHost(c) && write(c, parts, visit)) {
        // written inline
      } else if (ts.isJsxFragment(c) && writeFragment(c, parts, visit)) {
        // its children inline
      } else {
        parts.push(visit(c)); // a component, or an element left as one: the renderer writes it
      }
    }
  }

  // Writes a fragment's children into parts; false if it cannot.
  function writeFragment(node, parts, visit) {
    const texts = childTexts(node.children);
    if (texts === null) return false;
    writeChildren(node.children, texts, parts, visit);
    return true;
  }

  function call(fn, args) {
    return f.createCallExpression(f.createIdentifier('__tpl_' + fn), undefined, args);
  }

  const transformer = (ctx) => {
    const visit = (node) => {
      if ((isHost(node) || ts.isJsxFragment(node)) && inMarkup(node)) {
        const parts = [];
        if (ts.isJsxFragment(node) ? writeFragment(node, parts, visit) : write(node, parts, visit)) {
          compiled++;
          // Adjacent strings joined; a hole between each two strings.
          const strings = [''];
          const holes = [];
          for (const p of parts) {
            if (typeof p === 'string') strings[strings.length - 1] += p;
            else {
              holes.push(p);
              strings.push('');
            }
          }
          const id = f.createIdentifier(`__tpl_s${hoisted.length}`);
          hoisted.push(
            f.createVariableStatement(
              undefined,
              f.createVariableDeclarationList(
                [f.createVariableDeclaration(id, undefined, undefined, f.createArrayLiteralExpression(strings.map((s) => f.createStringLiteral(s))))],
                ts.NodeFlags.Const,
              ),
            ),
          );
          const expr = call('tpl', [id, ...holes]);
          // A template in a JSX child position goes in braces.
          const p = node.parent;
          return p && (ts.isJsxElement(p) || ts.isJsxFragment(p)) ? f.createJsxExpression(undefined, expr) : expr;
        }
      }
      return ts.visitEachChild(node, visit, ctx);
    };
    return (root) => ts.visitNode(root, visit);
  };
  const out = ts.transform(sf, [transformer]).transformed[0];
  if (compiled === 0) return { code: source, compiled };
  const imports = f.createImportDeclaration(
    undefined,
    f.createImportClause(
      false,
      undefined,
      f.createNamedImports(
        ['tpl', 'attr', 'text', 'html'].map((n) => f.createImportSpecifier(false, f.createIdentifier(n), f.createIdentifier('__tpl_' + n))),
      ),
    ),
    f.createStringLiteral(helpers),
  );
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = f.updateSourceFile(out, [imports, ...hoisted, ...out.statements]);
  return { code: printer.printFile(file), compiled };
}

/**
 * The esbuild plugin: compiles the .tsx files under src (a directory, with
 * its trailing slash). helpers: the runtime's path (src/lib/server-template.ts).
 */
export function serverTemplates({ src, helpers }) {
  return {
    name: 'server-templates',
    setup(build) {
      build.onLoad({ filter: /\.tsx$/ }, async (args) => {
        if (!args.path.startsWith(src)) return undefined;
        const source = await readFile(args.path, 'utf8');
        return { contents: compileTemplates(source, args.path, helpers).code, loader: 'tsx' };
      });
    },
  };
}
