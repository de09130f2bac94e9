import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { fieldRefusal, staleRefusal, stubDocument, setupScreenTests } from '../test-utils';
import Search, { SEARCH_PATH, synonymsFromText, synonymsText, type SearchSettings } from './Search';

const stored: SearchSettings = {
  synonyms: [['tee', 't-shirt']],
  version: 1,
  updated_at: '2026-11-24T10:00:00Z',
  misses: [
    { query: 'zebra hat', count: 3, last_seen: '2026-11-25T09:00:00Z' },
    { query: 'unicorn', count: 1, last_seen: '2026-11-24T09:00:00Z' },
  ],
};

const props = setupScreenTests('search');

describe('the search screen', () => {
  it('turns lines into groups and back', () => {
    expect(synonymsFromText('tee, t-shirt\n\n coat ,parka, \n')).toEqual([['tee', 't-shirt'], ['coat', 'parka']]);
    expect(synonymsText([['tee', 't-shirt'], ['coat', 'parka']])).toBe('tee, t-shirt\ncoat, parka');
  });

  it('saves the synonyms with their version and lists searches without results', async () => {
    const calls = stubDocument(SEARCH_PATH, stored);
    const { container } = render(<Search {...props} />);
    const box = await screen.findByLabelText(/^Synonyms/);
    expect(box).toHaveValue('tee, t-shirt');
    expect(screen.getByRole('cell', { name: 'zebra hat' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '3' })).toBeInTheDocument();
    await userEvent.type(box, '\ncoat, parka');
    await userEvent.click(screen.getByRole('button', { name: 'Save synonyms' }));
    expect(await screen.findByText(/^Search synonyms saved\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ synonyms: [['tee', 't-shirt'], ['coat', 'parka']], version: 1 });
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('names the refused line and takes the keyboard there', async () => {
    stubDocument(SEARCH_PATH, stored, fieldRefusal('synonyms[1]', 'a group needs 2 to 20 words or phrases'));
    render(<Search {...props} />);
    await userEvent.type(await screen.findByLabelText(/^Synonyms/), '\nalone');
    await userEvent.click(screen.getByRole('button', { name: 'Save synonyms' }));
    expect(await screen.findByText('Line 2: a group needs 2 to 20 words or phrases')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Synonyms/)).toHaveFocus());
  });

  it('refuses to overwrite newer synonyms and offers them', async () => {
    const newer = { ...stored, synonyms: [['coat', 'jacket']], version: 2 };
    stubDocument(SEARCH_PATH, stored, staleRefusal('Someone else saved the search settings after you opened them.', newer));
    render(<Search {...props} />);
    await userEvent.type(await screen.findByLabelText(/^Synonyms/), '\nx, y');
    await userEvent.click(screen.getByRole('button', { name: 'Save synonyms' }));
    expect(await screen.findByText('Someone else saved the search settings after you opened them.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load their synonyms' }));
    expect(screen.getByLabelText(/^Synonyms/)).toHaveValue('coat, jacket');
  });
});
