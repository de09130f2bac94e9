import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { orderReceivedPage } from './test-data';
import { PaymentMethods } from './PaymentMethods';

// The payment settings' texts (bank transfer description and account
// details, cash on delivery instructions) are the shop owner's plain text:
// markup in them shows as text, on the server's HTML and in the browser.

const hostile = '<img src=x onerror="alert(1)"><h1>Our bank changed</h1><script>alert(2)</script>\nSecond line';

describe('payment texts', () => {
  it('shows a method description as text, with its line breaks', () => {
    const methods = [{ id: 'bacs', title: 'Direct bank transfer', description: hostile, kind: 'offline' }] as Parameters<typeof PaymentMethods>[0]['methods'];
    const html = renderToString(<PaymentMethods methods={methods} value="bacs" onChange={() => {}} error="" />);
    expect(html).not.toMatch(/<img|<h1|<script/);
    expect(html).toContain('&lt;h1>Our bank changed&lt;/h1>');
    const { container } = render(<PaymentMethods methods={methods} value="bacs" onChange={() => {}} error="" />);
    expect(container.querySelector('img, h1, script')).toBeNull();
    const text = container.querySelector('.payment-text') as HTMLElement;
    expect(text.textContent).toBe(hostile);
    expect(screen.getByRole('radio', { name: 'Direct bank transfer' })).toHaveAccessibleDescription(/<h1>Our bank changed<\/h1>/);
  });

  it('shows order-received instructions as text', () => {
    const data = orderReceivedPage();
    data.order!.instructions = hostile + '\n\nOur bank details\n\n<img src=x onerror=alert(3)>Evil Ltd:\nIBAN: DE89370400440532013000';
    const html = renderToString(<App data={data} />);
    expect(html).not.toMatch(/<img|<h1>Our bank|<script>alert/);
    expect(html).toContain('&lt;h1>Our bank changed&lt;/h1>');
    const { container } = render(<App data={data} />);
    const region = screen.getByRole('region', { name: 'Our bank details' });
    expect(region.querySelector('img, h1, script')).toBeNull();
    expect(document.querySelectorAll('h1')).toHaveLength(1); // the page's own: Order received
    expect(container.querySelector('.order-instructions__text')?.textContent).toContain('<img src=x onerror=alert(3)>Evil Ltd:');
  });
});
