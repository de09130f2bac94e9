import { comboReducer, initialCombo, suggestionsText, type ComboState } from './combobox';
import type { SearchSuggestion } from '../types';

const s = (id: number, value = 'P' + id): SearchSuggestion => ({ id, value, url: id === -1 ? '' : `/product/p${id}/`, img: '', price: '' });
const none: SearchSuggestion = { id: -1, value: 'No results', url: '' };

function run(state: ComboState, ...actions: Parameters<typeof comboReducer>[1][]): ComboState {
  return actions.reduce(comboReducer, state);
}

describe('combobox reducer', () => {
  const withResults = () => run(initialCombo('hood'), { type: 'results', items: [s(1), s(2), s(3)] });

  it('opens on results with no active option', () => {
    expect(withResults()).toMatchObject({ open: true, active: -1, query: 'hood' });
  });

  it('ArrowDown / ArrowUp move the active option and wrap through the text field', () => {
    let st = withResults();
    st = run(st, { type: 'down' });
    expect(st.active).toBe(0);
    st = run(st, { type: 'down' }, { type: 'down' });
    expect(st.active).toBe(2);
    st = run(st, { type: 'down' });
    expect(st.active).toBe(-1);
    st = run(st, { type: 'down' });
    expect(st.active).toBe(0);
    st = run(st, { type: 'up' });
    expect(st.active).toBe(-1);
    st = run(st, { type: 'up' });
    expect(st.active).toBe(2);
  });

  it('the "No results" entry (id -1) is never active', () => {
    let st = run(initialCombo('zzzz'), { type: 'results', items: [none] });
    expect(st.open).toBe(true);
    st = run(st, { type: 'down' }, { type: 'down' }, { type: 'up' }, { type: 'hover', index: 0 });
    expect(st.active).toBe(-1);
  });

  it('Escape closes first, then clears the text', () => {
    let st = run(withResults(), { type: 'down' }, { type: 'escape' });
    expect(st).toMatchObject({ open: false, active: -1, query: 'hood' });
    st = run(st, { type: 'escape' });
    expect(st).toMatchObject({ open: false, query: '', items: [] });
  });

  it('typing resets the active option; clear and close shut the panel; ArrowDown reopens', () => {
    let st = run(withResults(), { type: 'down' }, { type: 'input', query: 'hoodi' });
    expect(st.active).toBe(-1);
    st = run(st, { type: 'close' });
    expect(st.open).toBe(false);
    st = run(st, { type: 'down' });
    expect(st).toMatchObject({ open: true, active: -1 });
    st = run(st, { type: 'clear' });
    expect(st).toMatchObject({ open: false, items: [] });
    expect(run(st, { type: 'down' })).toBe(st);
  });

  it('announces the count', () => {
    expect(suggestionsText([s(1), s(2), s(3), s(4), s(5)])).toBe('5 suggestions available');
    expect(suggestionsText([s(1)])).toBe('1 suggestion available');
    expect(suggestionsText([none])).toBe('No results');
  });
});
