import '../lib/preact-options';
// The admin app's entry (a second entry of the web build: storefront pages
// never load it). Client-rendered: the server sends a shell with the
// viewer's data (internal/server/admin_shell.go).

import { createRoot } from 'react-dom/client';
import { setRestNonce } from '../lib/rest';
import { AdminApp } from './AdminApp';
import { readAdminData } from './data';

const data = readAdminData();
const root = document.getElementById('admin-root');
if (data && root) {
  setRestNonce(data.nonce);
  createRoot(root).render(<AdminApp data={data} />);
}
