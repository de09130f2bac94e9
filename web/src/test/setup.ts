import '../lib/preact-options';
import '@testing-library/jest-dom/vitest';

// A browser fires input as text is typed, then change; preact/compat listens
// to input for a text control's onChange (as React's onChange fires on each
// keystroke). fireEvent.change on a text control fires input first, as typing would.
import { fireEvent } from '@testing-library/dom';

const fireChange = fireEvent.change;
fireEvent.change = (el: Document | Node | Element | Window, init?: object) => {
  const text = (el instanceof HTMLInputElement && !/^(checkbox|radio|file)$/.test(el.type)) || el instanceof HTMLTextAreaElement;
  if (text) fireEvent.input(el, init);
  return fireChange(el, init);
};
