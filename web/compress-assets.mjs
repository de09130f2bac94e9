// Compresses the client build's text assets once, at build time, at the
// densest settings: brotli quality 11 and gzip level 9, written beside each
// file as .br and .gz. The server sends these as they are (internal/
// storefront/files.go) instead of compressing every asset at start at the
// faster settings a start can afford. Vite names assets by content hash, so
// a compressed file always matches its source.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = path.join('dist', 'client', 'assets');
const text = /\.(js|css|svg|json|txt|map)$/;
const started = Date.now();
let raw = 0;
let br = 0;
for (const name of readdirSync(dir)) {
  if (!text.test(name)) continue;
  const file = path.join(dir, name);
  const data = readFileSync(file);
  const b = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(`${file}.br`, b);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  raw += data.length;
  br += b.length;
}
console.log(`assets compressed: ${raw} B to ${br} B brotli in ${Date.now() - started} ms`);
