import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { vi, type Mock } from 'vitest';
import { NotifyForm, NOTIFY_ACTION } from './NotifyForm';

vi.mock('../account/login/botcheck', () => ({ obtainProof: vi.fn() }));
import { obtainProof } from '../account/login/botcheck';

const proof = obtainProof as unknown as Mock;

afterEach(() => {
  vi.restoreAllMocks();
  proof.mockReset();
});

function answer(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('NotifyForm', () => {
  it('renders the same guest form on the server, posting without scripts', () => {
    const html = renderToString(<NotifyForm itemId={42} productName="Jug" />);
    expect(html).toContain(`action="${NOTIFY_ACTION}"`);
    expect(html).toContain('name="product_id" value="42"');
    expect(html).toContain('name="email"');
    expect(html).not.toContain('@');
  });

  it('refuses a bad address in its field, sending nothing', async () => {
    const user = userEvent.setup();
    const fetch = answer(200, {});
    render(<NotifyForm itemId={42} productName="Jug" />);
    const field = screen.getByRole('textbox', { name: /Email address/ });
    await user.type(field, 'nope{Enter}');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('posts a guest with the bot-check proof and reads the answer out', async () => {
    const user = userEvent.setup();
    proof.mockResolvedValue('PROOF');
    const fetch = answer(200, { status: 'pending', message: 'Please check your inbox.' });
    render(<NotifyForm itemId={42} productName="Jug" />);
    await user.type(screen.getByRole('textbox', { name: /Email address/ }), 'ann@example.com{Enter}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Please check your inbox.'));
    const body = new URLSearchParams(String(fetch.mock.calls[0][1]?.body));
    expect(body.get('product_id')).toBe('42');
    expect(body.get('email')).toBe('ann@example.com');
    expect(body.get('altcha')).toBe('PROOF');
  });

  it('shows a refusal in the alert, and a customer needs one click', async () => {
    const user = userEvent.setup();
    answer(409, { code: 'vitrine_alert_in_stock', message: 'This product is in stock: you can buy it now.' });
    render(<NotifyForm itemId={7} productName="Jug" user={{ logged_in: true, can_edit_pages: false }} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Notify me' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('This product is in stock'));
    expect(alert).toHaveFocus();
    expect(proof).not.toHaveBeenCalled();
  });
});
