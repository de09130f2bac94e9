import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { vi, type Mock } from 'vitest';
import { Reviews } from './Reviews';
import { productPage } from '../test/fixtures';

vi.mock('../account/login/botcheck', () => ({ obtainProof: vi.fn() }));
import { obtainProof } from '../account/login/botcheck';

const proof = obtainProof as unknown as Mock;

afterEach(() => {
  vi.restoreAllMocks();
  proof.mockReset();
});

describe('the star group', () => {
  it('is five real radios named rating, labelled "N of 5 stars", in a labelled group', () => {
    render(<Reviews data={productPage()} />);
    const group = screen.getByRole('group', { name: /Your rating/ });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(5);
    for (const n of [1, 2, 3, 4, 5]) {
      const r = within(group).getByRole('radio', { name: `${n} of 5 stars` });
      expect(r).toHaveAttribute('name', 'rating');
      expect(r).toHaveAttribute('value', String(n));
    }
    expect(screen.getByRole('radio', { name: /4 of 5 stars/ })).toBeInTheDocument();
  });

  it('lights the stars up to the one chosen', async () => {
    const user = userEvent.setup();
    const { container } = render(<Reviews data={productPage()} />);
    await user.click(screen.getByRole('radio', { name: /3 of 5 stars/ }));
    expect(screen.getByRole('radio', { name: /3 of 5 stars/ })).toBeChecked();
    expect(container.querySelectorAll('.comment-form-rating .star.on')).toHaveLength(3);
  });
});

describe('the review form', () => {
  // Renders the reviews, gives stars (none: no rating), fills in Ana's "Nice" and submits.
  async function submitReview(stars?: number) {
    const user = userEvent.setup();
    render(<Reviews data={productPage()} />);
    if (stars) await user.click(screen.getByRole('radio', { name: new RegExp(`${stars} of 5 stars`) }));
    await user.type(screen.getByLabelText(/Your review/), 'Nice');
    await user.type(screen.getByLabelText(/Name/), 'Ana');
    await user.type(screen.getByLabelText(/^Email/), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
  }

  it("server-renders WooCommerce's markup with the guest fields", () => {
    const html = renderToString(<Reviews data={productPage()} />);
    for (const s of ['id="review_form_wrapper"', 'id="respond"', 'class="comment-form"', 'class="comment-form-rating"', 'class="stars"',
      'name="comment"', 'name="author"', 'name="email"', 'name="comment_post_ID"', 'action="/wp-comments-post.php"', 'method="post"']) {
      expect(html).toContain(s);
    }
  });

  it('without a rating shows the alert, focuses the stars and sends nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await submitReview();
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a rating');
    expect(screen.getByRole('radio', { name: /1 of 5 stars/ })).toHaveFocus();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(proof).not.toHaveBeenCalled();
  });

  it('posts with the proof and shows the held review in place, focused', async () => {
    proof.mockResolvedValue('PROOF');
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({ id: 77, product_id: 16, status: 'hold', message: 'Your review is awaiting approval', redirect: '/x',
          review: { id: 77, reviewer: 'Ana', review: '<p>Nice</p>', rating: 5, verified: false, date_created: '2026-11-23T12:00:00Z',
            formatted_date_created: 'November 23, 2026', pending: true } }),
        { status: 201 },
      ),
    );
    await submitReview(5);
    await waitFor(() => expect(document.getElementById('comment-77')).toHaveFocus());
    expect(document.getElementById('li-comment-77')).toHaveTextContent('Your review is awaiting approval');
    expect(screen.getByRole('status')).toHaveTextContent('Your review is awaiting approval');
    const body = new URLSearchParams(String((fetchSpy.mock.calls[0][1] as RequestInit).body));
    expect(Object.fromEntries(body)).toMatchObject({ rating: '5', comment: 'Nice', author: 'Ana', email: 'ana@example.com', altcha: 'PROOF', comment_post_ID: '16' });
  });

  it("shows the server's refusal in the alert and focuses the field", async () => {
    proof.mockResolvedValue('PROOF');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ code: 'vitrine_review_invalid_email', message: 'Please enter a valid email address.', data: { status: 400, field: 'email' } }), { status: 400 }),
    );
    await submitReview(4);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.'));
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a logged-in customer "Logged in as …" and no name or email', () => {
    const data = productPage();
    data.settings = { ...data.settings, user: { logged_in: true, can_edit_pages: false, display_name: 'Ana Ng', logout_url: '/my-account/customer-logout/?_wpnonce=x' } };
    render(<Reviews data={data} />);
    expect(screen.getByText(/Logged in as Ana Ng\./)).toBeInTheDocument();
    expect(screen.queryByLabelText(/Name/)).toBeNull();
    expect(screen.queryByLabelText(/^Email/)).toBeNull();
  });

  it('shows guests the notice instead of the form when only verified owners may review', () => {
    const data = productPage();
    data.review_form = { ...data.review_form!, verified_only: true };
    render(<Reviews data={data} />);
    expect(screen.getByText('Only logged in customers who have purchased this product may leave a review.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('shows a logged-in customer who did not buy the product the notice, and one who did the form', () => {
    const user = { logged_in: true, can_edit_pages: false, display_name: 'Ana Ng', logout_url: '/my-account/customer-logout/?_wpnonce=x' };
    const data = productPage();
    data.settings = { ...data.settings, user };
    data.review_form = { ...data.review_form!, verified_only: true, eligible: false };
    const { unmount } = render(<Reviews data={data} />);
    expect(screen.getByText('Only logged in customers who have purchased this product may leave a review.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    unmount();
    render(<Reviews data={{ ...data, review_form: { ...data.review_form!, eligible: true } }} />);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });
});

describe('reviews list', () => {
  it('shows the histogram as text and the pages with rel and aria-current', () => {
    const data = productPage();
    data.rating_counts = [0, 1, 0, 3, 8];
    data.review_paging = { page: 2, pages: 3, total: 12, per_page: 10 };
    render(<Reviews data={data} />);
    expect(screen.getByText('5 stars: 8 reviews (67%)')).toBeInTheDocument();
    expect(screen.getByText('1 star: 0 reviews (0%)')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Reviews pages' });
    expect(within(nav).getByRole('link', { name: /Newer reviews/ })).toHaveAttribute('rel', 'prev');
    expect(within(nav).getByRole('link', { name: /Newer reviews/ }).getAttribute('href')).toMatch(/\/product\/[^/]+\/#comments$/);
    expect(within(nav).getByRole('link', { name: /Older reviews/ }).getAttribute('href')).toMatch(/comment-page-3\/#comments$/);
    expect(within(nav).getByText('2', { exact: false }).closest('[aria-current="page"]')).not.toBeNull();
  });

  it("shows the author's held review with the awaiting-approval note", () => {
    const data = productPage();
    data.pending_reviews = [{ id: 55, reviewer: 'Ana', review: '<p>Mine</p>', rating: 3, verified: false, date_created: '2026-11-23T12:00:00Z', formatted_date_created: 'November 23, 2026', pending: true }];
    render(<Reviews data={data} />);
    expect(document.getElementById('li-comment-55')).toHaveTextContent('Your review is awaiting approval');
    expect(document.getElementById('li-comment-101')).not.toHaveTextContent('awaiting approval');
  });
});
