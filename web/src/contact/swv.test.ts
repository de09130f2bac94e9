import vectors from '../../../internal/contactform/testdata/vectors.json';
import { acceptExtensions, isURL, normalizeURL, validate, type FileInfo, type SWVRule, type SWVSchema } from './swv';

interface Vector {
  name: string;
  rule: SWVRule;
  values: Record<string, string[]>;
  files: Record<string, FileInfo[]>;
  pass: boolean;
  report?: string;
}

const cases = vectors as unknown as Vector[];
const schemaOf = (rule: SWVRule): SWVSchema => ({ version: 'Contact Form 7 SWV Schema 2024-10', locale: 'en_US', rules: [rule] });

describe('the shared SWV vectors (internal/contactform/testdata/vectors.json, also run by the Go validator)', () => {
  it('cover every rule of protocol-notes 10.4', () => {
    const rules = new Set(cases.map((c) => c.rule.rule));
    for (const r of ['required', 'requiredfile', 'email', 'url', 'tel', 'number', 'date', 'time', 'file', 'enum', 'dayofweek',
      'minitems', 'maxitems', 'minlength', 'maxlength', 'minnumber', 'maxnumber', 'mindate', 'maxdate', 'minfilesize',
      'maxfilesize', 'stepnumber', 'all', 'any']) {
      expect(rules.has(r), r).toBe(true);
    }
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const got = validate(schemaOf(c.rule), c.values, c.files);
    expect(got.length === 0).toBe(c.pass);
    if (!c.pass) {
      expect(got).toHaveLength(1);
      expect(got[0].message).not.toBe('');
      if (c.report) expect(got[0].field).toBe(c.report);
    }
  });
});

describe('validate', () => {
  const schema: SWVSchema = {
    version: 'Contact Form 7 SWV Schema 2024-10',
    locale: 'en_US',
    rules: [
      { rule: 'required', field: 'your-email', error: 'Please fill out this field.' },
      { rule: 'email', field: 'your-email', error: 'Please enter an email address.' },
      { rule: 'maxlength', field: 'your-email', threshold: '10', error: 'This field has a too long input.' },
      { rule: 'required', field: 'your-name', error: 'Please fill out this field.' },
    ],
  };

  it('reports a field once, with its first failing rule, in schema order', () => {
    expect(validate(schema, { 'your-email': ['not an email at all'] }, {})).toEqual([
      { field: 'your-email', message: 'Please enter an email address.' },
      { field: 'your-name', message: 'Please fill out this field.' },
    ]);
  });

  it('validates only the fields asked for (the one that changed)', () => {
    expect(validate(schema, {}, {}, new Set(['your-name']))).toEqual([{ field: 'your-name', message: 'Please fill out this field.' }]);
    expect(validate(schema, { 'your-email': ['a@b.co'] }, {}, new Set(['your-email']))).toEqual([]);
  });
});

describe('details the vectors cannot show', () => {
  it('prefixes http:// to input with a dot and no scheme, as the form does to the field', () => {
    expect(normalizeURL('example.com')).toBe('http://example.com');
    expect(normalizeURL('//example.com')).toBe('http://example.com');
    expect(normalizeURL('mailto:a@b.co')).toBe('mailto:a@b.co');
    expect(normalizeURL('nodot')).toBe('nodot');
    expect(isURL('nodot')).toBe(false);
  });

  it('accepts a file whose type the browser does not know by its extension (the server checks the content)', () => {
    const rule: SWVRule = { rule: 'file', field: 'f', error: 'type', accept: ['.pdf'] };
    expect(validate(schemaOf(rule), {}, { f: [{ name: 'a.pdf', size: 3, type: '' }] })).toEqual([]);
    expect(validate(schemaOf(rule), {}, { f: [{ name: 'a.txt', size: 3, type: '' }] })).toHaveLength(1);
  });

  it('maps accept entries to the extensions the server can verify', () => {
    expect([...acceptExtensions(['image/*'])].sort()).toEqual(['gif', 'jpeg', 'jpg', 'png', 'webp']);
    expect([...acceptExtensions(['.PDF', '.exe', 'application/zip'])].sort()).toEqual(['pdf', 'zip']);
  });
});
