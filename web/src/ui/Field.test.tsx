import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { Field, InputField, SelectField, TextAreaField } from './Field';
import { PageContainer } from './PageContainer';

describe('Field', () => {
  it('ties the label to the input by id, made when none is given', () => {
    render(<InputField label="Email address" type="email" name="email" />);
    const input = screen.getByLabelText('Email address');
    expect(input).toHaveAttribute('type', 'email');
    expect(input.id).not.toBe('');
    expect(input).toHaveClass('input-text');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('draws a password input like every other input, labelled, with its hint read as its description', () => {
    render(<InputField label="Password" id="pw" type="password" name="password" hint="At least 12 characters." hintId="pw_help" required />);
    const input = screen.getByLabelText(/^Password/);
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveClass('input-text');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).toHaveAttribute('aria-describedby', 'pw_help');
    expect(input).toHaveAccessibleDescription('At least 12 characters.');
    // The "*" is not read out; the word is, when asked for.
    expect(document.querySelector('label .required')).toHaveAttribute('aria-hidden', 'true');
  });

  it('announces an error: aria-invalid, described by the error then the hint, an alert when asked', () => {
    render(<InputField label="Name" id="name" hint="As on your card." error="Enter your name." errorRole="alert" className="form-row" invalidClassName="woocommerce-invalid" />);
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAttribute('aria-describedby', 'name-error name-hint');
    expect(input).toHaveAccessibleDescription('Enter your name. As on your card.');
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your name.');
    const wrapper = input.parentElement!;
    expect(wrapper).toHaveClass('field', 'field--invalid', 'form-row', 'woocommerce-invalid');
  });

  it('labels a textarea and a select the same way', () => {
    render(
      <>
        <TextAreaField label="Your review" id="comment" name="comment" required />
        <SelectField label="Country" id="country" name="country" optional>
          <option value="">Choose…</option>
          <option value="FR">France</option>
        </SelectField>
      </>,
    );
    expect(screen.getByLabelText(/Your review/).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('combobox', { name: /Country/ })).toHaveAttribute('name', 'country');
    expect(screen.getByText('(optional)')).toBeInTheDocument();
  });

  it("hands its props to a caller's own control", () => {
    render(
      <Field label="Code" id="code" error="Wrong code.">
        {(p) => <input {...p} inputMode="numeric" />}
      </Field>,
    );
    const input = screen.getByLabelText('Code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAccessibleDescription('Wrong code.');
  });

  it('renders the same on the server (label for, ids) so hydration matches', () => {
    const html = renderToString(<InputField wrapper="p" wrapperId="user_field" label="User" id="user" hint="Your login." />);
    expect(html).toContain('<p id="user_field" class="field">');
    expect(html).toContain('for="user"');
    expect(html).toContain('aria-describedby="user-hint"');
    expect(html).toContain('<span id="user-hint" class="field__hint">');
  });
});

describe('PageContainer', () => {
  it('is the shop container, narrow when asked, with the page its own classes', () => {
    const { container } = render(
      <PageContainer className="account-login" id="x">
        <p>hi</p>
      </PageContainer>,
    );
    expect(container.firstElementChild).toHaveClass('container', 'account-login');
    expect(container.firstElementChild).not.toHaveClass('narrow');
    const { container: c2 } = render(<PageContainer narrow>x</PageContainer>);
    expect(c2.firstElementChild).toHaveClass('container', 'narrow');
  });
});
