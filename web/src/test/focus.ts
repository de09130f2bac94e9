// Keyboard checks shared by the Vitest files of modals (dialogs, drawers).
import { fireEvent } from '@testing-library/react';
import { expect } from 'vitest';

/** In root, Tab from last wraps to first and Shift+Tab from first back to last. */
export function expectTabWraps(root: Element, first: HTMLElement, last: HTMLElement) {
  last.focus();
  fireEvent.keyDown(root, { key: 'Tab' });
  expect(document.activeElement).toBe(first);
  fireEvent.keyDown(root, { key: 'Tab', shiftKey: true });
  expect(document.activeElement).toBe(last);
}
