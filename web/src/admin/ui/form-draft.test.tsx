import { fireEvent, render, screen } from '@testing-library/react';
import { useFormDraft } from './form-draft';

const FIELDS = ['first', 'second'] as const;

function Form() {
  const { draft, errors, set, form, showErrors } = useFormDraft({ first: '', second: '' }, FIELDS);
  return (
    <form ref={form} onSubmit={(e) => e.preventDefault()}>
      {FIELDS.map((f) => (
        <label key={f}>
          {f}
          <input name={f} value={draft[f]} onChange={(e) => set(f)(e.target.value)} aria-describedby={errors[f] ? `${f}-error` : undefined} />
          {errors[f] ? <span id={`${f}-error`}>{errors[f]}</span> : null}
        </label>
      ))}
      <button type="button" onClick={() => showErrors({ second: 'Second is wrong.', first: 'First is wrong.' })}>
        both
      </button>
      <button type="button" onClick={() => showErrors({ elsewhere: 'Not a field.' }) || document.body.setAttribute('data-none', '1')}>
        none
      </button>
    </form>
  );
}

describe('a form draft', () => {
  it('focuses the first refused field in screen order, and an edit clears only its own message', () => {
    render(<Form />);
    fireEvent.click(screen.getByRole('button', { name: 'both' }));
    expect(screen.getByRole('textbox', { name: /^first/ })).toHaveFocus();
    expect(screen.getByText('First is wrong.')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: /^first/ }), { target: { value: 'x' } });
    expect(screen.queryByText('First is wrong.')).toBeNull();
    expect(screen.getByText('Second is wrong.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^first/ })).toHaveValue('x');
  });

  it('reports when the messages name no field', () => {
    render(<Form />);
    fireEvent.click(screen.getByRole('button', { name: 'none' }));
    expect(document.body.getAttribute('data-none')).toBe('1');
    expect(screen.getByRole('button', { name: 'none' })).not.toHaveFocus();
  });
});
