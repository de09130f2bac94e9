// What the server inlines in the admin's shell (internal/server/admin_shell.go).

export interface AdminData {
  user: { id: number; name: string; role: 'administrator' | 'shop_manager' | string };
  nonce: string;
  logout_url: string;
  site: { name: string; url: string; currency: string };
}

export function readAdminData(doc: Document = document): AdminData | null {
  const el = doc.getElementById('vitrine-admin-data');
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as AdminData;
  } catch {
    return null;
  }
}
