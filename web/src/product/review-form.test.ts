import { checkReview, commentPagePath, looksLikeEmail, pageNumbers, postReview, starLabel } from './review-form';

const ok = { rating: 4, comment: 'Nice', author: 'Ana', email: 'ana@example.com' };

describe('checkReview', () => {
  it('asks for a rating first when ratings are required', () => {
    expect(checkReview({ ...ok, rating: 0, comment: '' }, { ratingsRequired: true, guest: true })).toEqual({
      field: 'rating',
      message: 'Please select a rating',
    });
    expect(checkReview({ ...ok, rating: 0 }, { ratingsRequired: false, guest: true })).toBeNull();
    expect(checkReview({ ...ok, rating: 6 }, { ratingsRequired: true, guest: true })?.field).toBe('rating');
  });

  it("checks a guest's name and email in the server's order and texts", () => {
    const opts = { ratingsRequired: true, guest: true };
    expect(checkReview({ ...ok, author: ' ' }, opts)).toEqual({ field: 'author', message: 'Please fill the required fields.' });
    expect(checkReview({ ...ok, email: '' }, opts)).toEqual({ field: 'email', message: 'Please fill the required fields.' });
    expect(checkReview({ ...ok, email: 'ana@example' }, opts)).toEqual({ field: 'email', message: 'Please enter a valid email address.' });
    expect(checkReview({ ...ok, comment: ' \n' }, opts)).toEqual({ field: 'comment', message: 'Please type your comment text.' });
    expect(checkReview(ok, opts)).toBeNull();
  });

  it('asks a logged-in customer for neither name nor email', () => {
    expect(checkReview({ ...ok, author: '', email: '' }, { ratingsRequired: true, guest: false })).toBeNull();
  });

  it('recognises emails roughly as WordPress does', () => {
    expect(looksLikeEmail('a.b@shop.example')).toBe(true);
    expect(looksLikeEmail('a b@shop.example')).toBe(false);
    expect(looksLikeEmail('a@shop')).toBe(false);
  });
});

describe('paging helpers', () => {
  it('labels stars and builds comment-page URLs', () => {
    expect(starLabel(1)).toBe('1 of 5 stars');
    expect(starLabel(3)).toBe('3 of 5 stars');
    expect(commentPagePath('/product/tee/', 1)).toBe('/product/tee/');
    expect(commentPagePath('/product/tee/', 3)).toBe('/product/tee/comment-page-3/');
  });

  it('lists every page up to seven, else the ends and neighbours with gaps', () => {
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(5, 12)).toEqual([1, 0, 4, 5, 6, 0, 12]);
    expect(pageNumbers(1, 12)).toEqual([1, 2, 0, 12]);
  });
});

describe('postReview', () => {
  const body = new URLSearchParams({ comment_post_ID: '16', rating: '5', comment: 'Great' });

  it('posts the form as JSON-accepting form data and reads the new review', async () => {
    const fetcher = vi.fn(async () =>
      new Response(JSON.stringify({ id: 9, product_id: 16, status: 'hold', message: 'Your review is awaiting approval', redirect: '/x', review: { id: 9, pending: true } }), {
        status: 201,
      }),
    );
    const res = await postReview('/wp-comments-post.php', body, fetcher as unknown as typeof fetch);
    expect(res.ok && res.posted.status).toBe('hold');
    const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/wp-comments-post.php');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Accept).toBe('application/json');
    expect(init.body).toBe('comment_post_ID=16&rating=5&comment=Great');
  });

  it("reads a refusal's message and field", async () => {
    const fetcher = vi.fn(async () =>
      new Response(JSON.stringify({ code: 'comment_duplicate', message: 'Duplicate comment detected', data: { status: 409 } }), { status: 409 }),
    );
    expect(await postReview('/p', body, fetcher as unknown as typeof fetch)).toEqual({
      ok: false,
      status: 409,
      error: { field: '', message: 'Duplicate comment detected' },
    });
    const fieldFetcher = vi.fn(async () =>
      new Response(JSON.stringify({ code: 'x', message: 'Please type your comment text.', data: { status: 400, field: 'comment' } }), { status: 400 }),
    );
    const r = await postReview('/p', body, fieldFetcher as unknown as typeof fetch);
    expect(!r.ok && r.error).toEqual({ field: 'comment', message: 'Please type your comment text.' });
  });

  it('turns a network failure into a message', async () => {
    const r = await postReview('/p', body, (async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch);
    expect(!r.ok && r.status).toBe(0);
    expect(!r.ok && r.error.message).toMatch(/could not be sent/);
  });
});
