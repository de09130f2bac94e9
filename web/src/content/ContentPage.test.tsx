import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../App';
import { contentPage, listingPage } from '../test/fixtures';

describe('ContentPage', () => {
  it('shows the title, the body, the breadcrumbs and the date', () => {
    render(<App data={contentPage()} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('About us');
    expect(screen.getByText('We sew & knit.')).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(crumbs).getByText('About us')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Last updated May 1, 2026')).toBeInTheDocument();
    expect(document.querySelector('.page-content--about')).not.toBeNull();
  });

  it('keeps a title as text', () => {
    render(<App data={contentPage({ content: { slug: 'x', title: '<b>Bold</b> & co', html: '<p>x</p>', modified: '' } })} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('<b>Bold</b> & co');
    expect(screen.queryByText(/Last updated/)).toBeNull();
  });

  it('loads its video only on a press of Play', async () => {
    const user = userEvent.setup();
    render(<App data={contentPage()} />);
    expect(document.querySelector('iframe.lazy-video__frame')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Play video: About us' }));
    expect(document.querySelector('iframe.lazy-video__frame')).toHaveAttribute('title', 'About us (YouTube video player)');
  });

  it('shows staff its edit links', () => {
    render(
      <App
        data={contentPage({
          edit_links: [{ block: 'page', label: 'Edit About us', builder_url: '/wp-admin/post.php?post=1&action=edit&app=uxbuilder', editor_url: '/wp-admin/post.php?post=1&action=edit' }],
        })}
      />,
    );
    expect(screen.getByRole('link', { name: 'Edit About us in the backend editor' })).toHaveAttribute('href', '/wp-admin/post.php?post=1&action=edit');
  });
});

describe('footer page links', () => {
  it('links every published page from the footer, the current one marked', () => {
    render(<App data={contentPage()} />);
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'About us' })).toHaveAttribute('aria-current', 'page');
    expect(within(footer).getByRole('link', { name: 'Terms and conditions' })).toHaveAttribute('href', '/terms/');
    expect(within(footer).getByRole('link', { name: 'Terms and conditions' })).not.toHaveAttribute('aria-current');
  });

  it('has none when the shop has none', () => {
    render(<App data={listingPage()} />);
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getAllByRole('link').map((a) => a.textContent)).toEqual(['Shop', 'Cart', 'My account', 'Contact']);
  });
});
