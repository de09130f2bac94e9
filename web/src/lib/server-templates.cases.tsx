import './preact-options';
import { cloneElement, Fragment, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server.browser';
import { installServerVnodeHook } from './server-vnode';

/**
 * Markup the server's template compiler (server-templates.mjs) must write
 * exactly as the renderer writes the same elements: every kind of attribute
 * and child, and the elements it leaves alone. server-templates.test.ts
 * builds this module with and without the compiler and compares each case.
 */

const noop = () => {};
const hostile = 'a < b & "c" \u2019d\u2019';

function Badge({ n }: { n: number }) {
  return <em className="badge">{n}</em>;
}

/** A fragment as what a component returns, with a component and an entity inside. */
function Pair({ label }: { label: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <Badge n={label.length} />
      </dd>
      {label.length > 2 && <>long &amp; kept</>}
    </>
  );
}

/** Clones its child, as the tooltip does: the child must stay an element. */
function Describe({ children }: { children: ReactElement<{ 'aria-describedby'?: string }> }) {
  return <span className="anchor">{cloneElement(children, { 'aria-describedby': 'tip' })}</span>;
}

function Wrap({ children }: { children: ReactElement }) {
  return <section>{children}</section>;
}

const cases: [string, () => ReactElement][] = [
  [
    'attribute names and values',
    () => (
      <div className="a b" id={`x-${3}`} tabIndex={-1} aria-hidden={true} aria-expanded={false} data-count={3} data-flag={true}>
        <label htmlFor="f">Label</label>
        <input id="f" type="checkbox" defaultChecked disabled={false} readOnly autoComplete="off" maxLength={5} />
        <input type="text" defaultValue={hostile} title="" placeholder={''} name={undefined} value={null as unknown as string} onChange={noop} />
        <button type="button" onClick={noop} hidden={false} draggable={true} spellCheck={false} ref={noop}>
          Go
        </button>
        <a href={`/x?a=1&b=${hostile}`} rel={undefined} className={undefined} data-none={null} aria-label={hostile}>
          link
        </a>
        <meta httpEquiv="refresh" content="0" />
        <form acceptCharset="utf-8" noValidate encType="multipart/form-data" />
      </div>
    ),
  ],
  [
    'text and values as children',
    () => (
      <p className="meta">
        <strong>{hostile}</strong> {0} {false} {null} {undefined} {true}
        {['x', 1, <i key="i">i</i>, [<b key="b">{hostile}</b>, 'y']]}
        {' '}
        –{' '}
        <time dateTime="2026-12-01">{'1 December 2026'}</time>
        text with a trailing space{' '}
        {hostile.length > 3 && <span>yes</span>}
        {hostile.length > 99 ? <span>no</span> : <span>{hostile.slice(0, 3)}</span>}
        {hostile.length > 99 && <span>never</span>}
      </p>
    ),
  ],
  [
    'text across lines',
    () => (
      <div>
        First line
        second line,   with spaces kept inside
        <span>  padded  </span>

        after a blank line
        {'  a string kept as written  '}
      </div>
    ),
  ],
  [
    'inner HTML, void and empty elements',
    () => (
      <div>
        <div className="description" dangerouslySetInnerHTML={{ __html: '<p>Some <b>bold</b> text &amp; more</p>' }} />
        <div dangerouslySetInnerHTML={{ __html: '' }} />
        <span dangerouslySetInnerHTML={undefined as unknown as { __html: string }} />
        <img src="/a.png" alt="" width={32} height={32} loading="lazy" />
        <br />
        <hr className="rule" />
        <span />
        <div></div>
        <ul>
          <li />
        </ul>
      </div>
    ),
  ],
  [
    'components, lists and fragments in markup',
    () => (
      <ol className="list">
        {[1, 2, 3].map((n) => (
          <li key={n} className={n === 2 ? 'current' : undefined}>
            <Badge n={n} />
            {n % 2 === 0 ? <strong>even</strong> : 'odd'}
          </li>
        ))}
        <li>
          <dl>
            <Pair label={hostile} />
            <Pair label="ab" />
          </dl>
        </li>
        <>
          <li>in a fragment</li>
          <Fragment key="k">
            <li>in a keyed fragment</li>
          </Fragment>
        </>
      </ol>
    ),
  ],
  [
    'elements left as elements',
    () => {
      const cloned = <button type="button">Cloned</button>;
      return (
        <div>
          <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24">
            <path d="M4 7h16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            <g className="g">
              <circle cx="12" cy="12" r="3" />
            </g>
          </svg>
          <select name="s" value="b" onChange={noop}>
            <option value="a">A</option>
            <option value="b">B</option>
          </select>
          <textarea name="t" value={hostile} onChange={noop} />
          <span style={{ width: '50%', marginTop: 2, opacity: 0.5 }}>styled</span>
          <span {...{ id: 'spread', title: hostile }}>spread</span>
          <span title="entity &amp; kept">&nbsp;entity&amp;text</span>
          <Describe>{cloned}</Describe>
          <Describe>
            <a href="/d">Direct child</a>
          </Describe>
          <Wrap>
            <p>A component’s child</p>
          </Wrap>
        </div>
      );
    },
  ],
];

/** Each case's name and HTML, rendered as entry-server.tsx renders a page. */
export function renderCases(): [string, string][] {
  installServerVnodeHook();
  return cases.map(([name, make]) => [name, renderToString(make())]);
}

(globalThis as unknown as { renderCases: typeof renderCases }).renderCases = renderCases;
