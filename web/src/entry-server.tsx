import './ssr-polyfills';
import { renderToString } from 'react-dom/server.browser';
import { App } from './App';
import type { PageData } from './types';

export function render(url: string, json: string): string {
  const data = JSON.parse(json) as PageData;
  if (!data.url) data.url = url;
  return renderToString(<App data={data} />);
}

(globalThis as unknown as { render: typeof render }).render = render;
