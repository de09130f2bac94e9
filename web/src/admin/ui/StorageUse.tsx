import { useEffect, useState } from 'react';
import { adminCall } from '../api';

/** What uploads hold of the shop's storage (adminapi/storage.go). */
export const STORAGE_PATH = '/wp-json/vitrine/v1/admin/storage';

type Usage = { used: number; quota: number };

export type StorageFigures = {
  contact_files: Usage;
  media: Usage;
  disk: { checked: boolean; free: number; floor: number; low: boolean };
};

/** Bytes as megabytes with one decimal: "12.3 MB". */
export function formatMB(bytes: number): string {
  return `${(bytes / (1 << 20)).toFixed(1)} MB`;
}

/**
 * One line on the use of a part of the storage against its quota
 * ("Contact files: 12.3 MB of 200.0 MB"), saying when it is full or the
 * server's disk is low (uploads are refused then). Nothing shows when the
 * figures cannot be read. `refresh` reads them again when it changes.
 */
export function StorageUse({ part, label, refresh }: { part: 'contact_files' | 'media'; label: string; refresh?: unknown }) {
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  useEffect(() => {
    let live = true;
    void adminCall<StorageFigures>('GET', STORAGE_PATH).then((r) => {
      if (live && r.ok) setFigures(r.data);
    });
    return () => {
      live = false;
    };
  }, [refresh]);
  if (!figures) return null;
  const u = figures[part];
  const full = u.quota > 0 && u.used >= u.quota;
  return (
    <p className="admin-storage-use">
      {label}: {formatMB(u.used)}
      {u.quota > 0 ? ` of ${formatMB(u.quota)}` : ' (no quota)'}
      {full ? '. Full: new files are refused until some are deleted.' : ''}
      {figures.disk.low ? ' The server is short of disk space: uploads are paused.' : ''}
    </p>
  );
}
