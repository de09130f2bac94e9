import type { SearchSuggestion } from '../types';

/** Live-search combobox state: the typed text, the suggestions, the panel, the active option. */
export interface ComboState {
  query: string;
  items: SearchSuggestion[];
  open: boolean;
  /** Index into items of the active option, -1 for none. */
  active: number;
}

export type ComboAction =
  | { type: 'input'; query: string }
  | { type: 'results'; items: SearchSuggestion[] }
  | { type: 'clear' }
  | { type: 'down' }
  | { type: 'up' }
  | { type: 'escape' }
  | { type: 'close' }
  | { type: 'hover'; index: number };

export const initialCombo = (query = ''): ComboState => ({ query, items: [], open: false, active: -1 });

/** A suggestion the keyboard can reach (the "No results" entry, id -1, cannot). */
export function selectable(s: SearchSuggestion | undefined): boolean {
  return !!s && s.id !== -1 && !!s.url;
}

function step(items: SearchSuggestion[], from: number, dir: 1 | -1): number {
  const n = items.length;
  if (n === 0) return -1;
  for (let k = 1; k <= n; k++) {
    // -1 is a stop between the last and the first option (back to the text).
    const raw = from + dir * k;
    const i = ((raw % (n + 1)) + (n + 1)) % (n + 1);
    if (i === n) return -1;
    if (selectable(items[i])) return i;
  }
  return -1;
}

export function comboReducer(s: ComboState, a: ComboAction): ComboState {
  switch (a.type) {
    case 'input':
      return { ...s, query: a.query, active: -1 };
    case 'results':
      return { ...s, items: a.items, open: a.items.length > 0, active: -1 };
    case 'clear':
      return { ...s, items: [], open: false, active: -1 };
    case 'down':
      if (!s.open) return s.items.length ? { ...s, open: true } : s;
      return { ...s, active: step(s.items, s.active === -1 ? -1 : s.active, 1) };
    case 'up':
      if (!s.open) return s.items.length ? { ...s, open: true } : s;
      return { ...s, active: step(s.items, s.active === -1 ? s.items.length : s.active, -1) };
    case 'escape':
      // First Escape closes the panel, a second clears the text.
      if (s.open) return { ...s, open: false, active: -1 };
      return { ...s, query: '', items: [], active: -1 };
    case 'close':
      return s.open || s.active !== -1 ? { ...s, open: false, active: -1 } : s;
    case 'hover':
      return selectable(s.items[a.index]) ? { ...s, active: a.index } : s;
    default:
      return s;
  }
}

/** The live region's text for a set of suggestions. */
export function suggestionsText(items: SearchSuggestion[]): string {
  const n = items.filter(selectable).length;
  if (n === 0) return 'No results';
  return n === 1 ? '1 suggestion available' : `${n} suggestions available`;
}
