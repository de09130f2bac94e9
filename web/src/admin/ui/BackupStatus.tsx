import { useEffect, useState } from 'react';
import { adminCall } from '../api';
import { formatDate } from './format';
import { formatMB, STORAGE_PATH, type StorageFigures } from './StorageUse';

/** The scheduled backups, as the storage figures tell them (internal/backup). */
export type BackupFigures = {
  enabled: boolean;
  every_seconds: number;
  keep: number;
  late: boolean;
  last: { at: string; file: string; size: number } | null;
};

function hours(seconds: number): string {
  const h = seconds / 3600;
  return `${Number.isInteger(h) ? h : h.toFixed(1)} h`;
}

/**
 * One line on the scheduled backups for the dashboard: the newest one and
 * the schedule, with a warning when the newest is older than twice the
 * interval. Nothing shows when the figures cannot be read.
 */
export function BackupStatus() {
  const [b, setB] = useState<BackupFigures | null>(null);
  useEffect(() => {
    let live = true;
    void adminCall<StorageFigures & { backups?: BackupFigures }>('GET', STORAGE_PATH).then((r) => {
      if (live && r.ok && r.data.backups) setB(r.data.backups);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!b) return null;
  if (!b.enabled) {
    return <p className="admin-backups">Scheduled backups are off (start the shop with --backup-dir to take them).</p>;
  }
  const schedule = `every ${hours(b.every_seconds)}, the newest ${b.keep} kept`;
  const line = b.last ? (
    <>
      Last backup: <time dateTime={b.last.at}>{formatDate(b.last.at)}</time> ({formatMB(b.last.size)}), {schedule}.
    </>
  ) : (
    <>No backup written yet; backups run {schedule}.</>
  );
  if (!b.late) return <p className="admin-backups">{line}</p>;
  return (
    <div className="admin-notice admin-notice--error" role="alert">
      <p>
        {line} Warning: no backup for more than {hours(2 * b.every_seconds)}; check the shop&apos;s log for the backup&apos;s
        error.
      </p>
    </div>
  );
}
