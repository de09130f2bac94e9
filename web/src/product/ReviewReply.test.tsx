import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { Reviews } from './Reviews';
import { productPage } from '../test/fixtures';

// The shop's reply to a review (the moderation queue writes it):
// nested under its review as WordPress nests replies, in the shop's name.
describe("the shop's reply under a review", () => {
  it('shows under its review, escaped, with the date, and passes axe', async () => {
    const data = productPage();
    data.product.review_count = 1;
    data.review_paging = { page: 1, pages: 1, total: 1, per_page: 10 };
    data.reviews = [
      {
        id: 41,
        reviewer: 'Ana',
        review: '<p>Soft tee.</p>\n',
        rating: 5,
        verified: false,
        date_created: '2026-11-23T12:00:00Z',
        formatted_date_created: 'November 23, 2026',
        reply: { author: 'Vitrine', reply: '<p>Thank you &lt;3</p>\n', date_created: '2026-11-24T09:00:00Z', formatted_date_created: 'November 24, 2026' },
      },
    ];
    const { container } = render(<Reviews data={data} />);
    const item = container.querySelector('#li-comment-41') as HTMLElement;
    const reply = within(item).getByRole('article', { name: 'Reply from Vitrine' });
    expect(reply.closest('ul.children')?.parentElement).toBe(item);
    expect(within(reply).getByText('Thank you <3')).toBeInTheDocument();
    expect(within(reply).getByText('(shop reply)')).toBeInTheDocument();
    expect(within(reply).getByText('November 24, 2026')).toHaveAttribute('datetime', '2026-11-24T09:00:00Z');
    expect(screen.getAllByRole('article')).toHaveLength(2);
    const res = await axe.run(item, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);
  });
});
