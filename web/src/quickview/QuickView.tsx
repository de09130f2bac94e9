import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ProductPage } from '../types';
import { decodeEntities } from '../lib/format';
import { fetchPageData, PageLoadError } from '../listing/page-data';
import { onQuickView, type QuickViewRequest } from './quickview-store';
import type { QuickViewContent as Content } from './QuickViewContent';
// The popup's content is a chunk (loadContent below); its stylesheets, the
// product forms' and gallery's, stay in the first stylesheet, in this order,
// so the popup and the product page are styled at first paint.
import '../product/product.css';
import '../ui/tooltip.css';
import '../product/variations.css';
import './quickview.css';

/** Spec section 9: quick-view removal delay (close animation), ms. */
export const QUICKVIEW_REMOVAL_DELAY = 300;

// Product page data already fetched in this page view, by product id.
const loaded = new Map<number, ProductPage>();

// The popup's content (the product's forms and what they import) is a chunk
// of its own, loaded with the first product's data: a page that never opens
// a quick view never downloads it. Set before any data is in `loaded`.
let QuickViewContent: typeof Content | null = null;
async function loadContent(): Promise<void> {
  QuickViewContent ??= (await import('./QuickViewContent')).QuickViewContent;
}

/** Loads a product's page and returns its page data (the quick view's content). */
export async function loadQuickView(permalink: string, signal?: AbortSignal): Promise<ProductPage> {
  const data = await fetchPageData(permalink, signal);
  if (data.page !== 'product') throw new PageLoadError('not a product page');
  return data;
}

type State = { status: 'loading' } | { status: 'ready'; data: ProductPage } | { status: 'error' };

function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function QuickViewDialog({ request, onClosed }: { request: QuickViewRequest; onClosed: () => void }) {
  const { product, opener } = request;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const cached = loaded.get(product.id);
  const [state, setState] = useState<State>(cached ? { status: 'ready', data: cached } : { status: 'loading' });
  const [closing, setClosing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', ''); // very old browsers: no modality, still closable
    }
    return () => clearTimeout(timer.current);
  }, []);

  useEffect(() => {
    if (state.status !== 'loading') return;
    const ctrl = new AbortController();
    Promise.all([loadQuickView(product.permalink, ctrl.signal), loadContent()]).then(
      ([data]) => {
        loaded.set(product.id, data);
        setState({ status: 'ready', data });
      },
      () => {
        if (!ctrl.signal.aborted) setState({ status: 'error' });
      },
    );
    return () => ctrl.abort();
  }, [state.status, product.id, product.permalink]);

  // Close with the removal delay (the fade-out); at once under reduced motion.
  const close = useCallback(() => {
    const d = ref.current;
    if (!d || !d.open) return;
    if (reducedMotion()) {
      d.close();
      return;
    }
    setClosing(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => ref.current?.close(), QUICKVIEW_REMOVAL_DELAY);
  }, []);

  // Whatever closed the dialog (button, Escape, backdrop, form method=dialog):
  // unmount it and give focus back to the card's button.
  const onClose = () => {
    clearTimeout(timer.current);
    if (opener && opener.isConnected) opener.focus();
    onClosed();
  };

  const name = decodeEntities(product.name);
  return (
    <dialog
      ref={ref}
      className={'quickview-dialog' + (closing ? ' is-closing' : '')}
      aria-labelledby={titleId}
      onCancel={(e) => {
        // Escape: run the same animated close (the browser closes at once if it will not let us).
        e.preventDefault();
        close();
      }}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) close(); // a click on the backdrop
      }}
    >
      <div className="quickview-dialog__inner">
        <button type="button" className="quickview-dialog__close" onClick={close}>
          <span aria-hidden="true">×</span>
          <span className="screen-reader-text">Close</span>
        </button>
        {state.status === 'ready' && QuickViewContent ? (
          <QuickViewContent data={state.data} titleId={titleId} />
        ) : (
          <div className="quickview quickview--pending">
            <h2 className="product_title quickview__title" id={titleId}>
              {name}
            </h2>
            {state.status === 'loading' ? (
              <p className="quickview__loading" role="status">
                Loading...
              </p>
            ) : (
              <p className="quickview__error" role="alert">
                The content could not be loaded. <a href={product.permalink}>Open the product page</a>
              </p>
            )}
          </div>
        )}
      </div>
    </dialog>
  );
}

/** Mounted once in the layout; shows the dialog when a card's Quick view button asks. */
export function QuickViewHost() {
  const [request, setRequest] = useState<{ r: QuickViewRequest; n: number } | null>(null);
  useEffect(() => onQuickView((r) => setRequest((cur) => ({ r, n: (cur?.n ?? 0) + 1 }))), []);
  const onClosed = useCallback(() => setRequest(null), []);
  if (!request) return null;
  return <QuickViewDialog key={request.n} request={request.r} onClosed={onClosed} />;
}
