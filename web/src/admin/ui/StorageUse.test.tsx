import { render, screen } from '@testing-library/react';
import { stubFetch, setupAdminTests } from '../test-utils';
import { STORAGE_PATH, StorageUse, type StorageFigures } from './StorageUse';

const figures = (over: Partial<StorageFigures> = {}): StorageFigures => ({
  contact_files: { used: 12.3 * (1 << 20), quota: 200 << 20 },
  media: { used: 5 << 20, quota: 0 },
  disk: { checked: true, free: 10 << 30, floor: 512 << 20, low: false },
  ...over,
});

setupAdminTests();

describe('the storage line', () => {
  it('shows the use against the quota', async () => {
    const calls = stubFetch((method, url) => (method === 'GET' && url === STORAGE_PATH ? { body: figures() } : undefined));
    render(<StorageUse part="contact_files" label="Contact files" />);
    expect(await screen.findByText('Contact files: 12.3 MB of 200.0 MB')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('says when there is no quota, when it is full and when the disk is low', async () => {
    stubFetch(() => ({ body: figures({ contact_files: { used: 200 << 20, quota: 200 << 20 }, disk: { checked: true, free: 1, floor: 2, low: true } }) }));
    const { unmount } = render(<StorageUse part="contact_files" label="Contact files" />);
    expect(
      await screen.findByText('Contact files: 200.0 MB of 200.0 MB. Full: new files are refused until some are deleted. The server is short of disk space: uploads are paused.'),
    ).toBeInTheDocument();
    unmount();
    render(<StorageUse part="media" label="Media files" />);
    expect(await screen.findByText(/^Media files: 5\.0 MB \(no quota\)/)).toBeInTheDocument();
  });

  it('shows nothing when the figures cannot be read', async () => {
    const calls = stubFetch(() => undefined);
    const { container } = render(<StorageUse part="media" label="Media files" />);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(container).toBeEmptyDOMElement();
  });
});
