// The stylesheets of the listing and product pages, which are chunks in the
// browser build (pages.client.ts). App imports this file where it imported
// those pages before they were split, so their CSS stays in the first
// stylesheet, in the same cascade order: a server-rendered listing or
// product page is styled at first paint, before its chunk loads. (The
// product's own product.css, tooltip.css and variations.css come earlier,
// through quickview/QuickView.tsx.)
import '../listing/infinite-scroll.css';
import '../listing/sidebar.css';
import '../ui/media.css';
import '../wallet/wallet.css';
import '../product/accordion.css';
