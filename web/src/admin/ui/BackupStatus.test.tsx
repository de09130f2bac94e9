import { render, screen } from '@testing-library/react';
import { stubFetch, setupAdminTests } from '../test-utils';
import { BackupStatus, type BackupFigures } from './BackupStatus';
import { STORAGE_PATH } from './StorageUse';

const figures = (backups: Partial<BackupFigures>) => ({
  contact_files: { used: 0, quota: 0 },
  media: { used: 0, quota: 0 },
  disk: { checked: false, free: 0, floor: 0, low: false },
  backups: { enabled: true, every_seconds: 6 * 3600, keep: 28, late: false, last: null, ...backups },
});

setupAdminTests();

describe('the backup line', () => {
  it('shows the last backup and the schedule', async () => {
    stubFetch((method, url) =>
      method === 'GET' && url === STORAGE_PATH
        ? { body: figures({ last: { at: '2026-11-29T12:00:00Z', file: 'vitrine-20261129T120000Z.tar.gz', size: 12.5 * (1 << 20) } }) }
        : undefined,
    );
    render(<BackupStatus />);
    const line = await screen.findByText(/^Last backup:/);
    expect(line).toHaveTextContent(/\(12\.5 MB\), every 6 h, the newest 28 kept\.$/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns when the last backup is older than twice the interval', async () => {
    stubFetch(() => ({ body: figures({ late: true, last: { at: '2026-11-28T00:00:00Z', file: 'x', size: 1 << 20 } }) }));
    render(<BackupStatus />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Warning: no backup for more than 12 h');
  });

  it('says when backups are off, or none is written yet', async () => {
    stubFetch(() => ({ body: figures({ enabled: false }) }));
    const { unmount } = render(<BackupStatus />);
    expect(await screen.findByText(/Scheduled backups are off/)).toBeInTheDocument();
    unmount();
    stubFetch(() => ({ body: figures({}) }));
    render(<BackupStatus />);
    expect(await screen.findByText('No backup written yet; backups run every 6 h, the newest 28 kept.')).toBeInTheDocument();
  });
});
