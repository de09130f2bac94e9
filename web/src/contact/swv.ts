/**
 * Contact Form 7's schema-woven validation (SWV) in the browser: the rules of
 * protocol-notes 10.4, evaluated against the schema the server embeds in the
 * page (the same document it serves at .../feedback/schema and validates
 * with in internal/contactform). Both sides run the shared test vectors in
 * internal/contactform/testdata/vectors.json, so they agree case by case.
 *
 * Files: the server types a file by its content; the browser can only see
 * the type the file input reports (derived from the name). A file is
 * accepted here when its extension is allowed and its reported type, if
 * any, is one a file of that extension has; the server has the last word.
 */

export interface SWVRule {
  rule: string;
  field?: string;
  error?: string;
  accept?: string[];
  threshold?: string;
  base?: string;
  interval?: string;
  rules?: SWVRule[];
}

export interface SWVSchema {
  version: string;
  locale: string;
  rules: SWVRule[];
}

/** What the validator needs of an uploaded file. */
export interface FileInfo {
  name: string;
  size: number;
  type: string;
}

export type Values = Record<string, string[]>;
export type Files = Record<string, FileInfo[]>;

/** One field's error: field is the reported name (dots turned into underscores). */
export interface Invalid {
  field: string;
  message: string;
}

/** The name CF7 reports a field under: PHP turns dots of posted names into underscores. */
export function reported(name: string): string {
  return name.replaceAll('.', '_');
}

const MAX_DEPTH = 32;

/**
 * Checks values and files against the schema's rules in order. A field
 * reports only its first failing rule; format rules pass on empty fields.
 * With `only`, rules about other fields are skipped (validation of the field
 * that changed).
 */
export function validate(schema: SWVSchema, values: Values, files: Files, only?: ReadonlySet<string>): Invalid[] {
  const out: Invalid[] = [];
  const failed = new Set<string>();
  for (const r of schema.rules ?? []) {
    if (only && !(r.field && only.has(reported(r.field)))) continue;
    if (r.field && failed.has(reported(r.field))) continue;
    const [ok, field, message] = check(r, values, files, 0);
    if (ok) continue;
    const name = reported(field);
    if (failed.has(name)) continue;
    failed.add(name);
    out.push({ field: name, message });
  }
  return out;
}

function check(r: SWVRule, values: Values, files: Files, depth: number): [boolean, string, string] {
  if (r.rule === 'all') {
    if (depth >= MAX_DEPTH) return [true, '', ''];
    for (const c of r.rules ?? []) {
      const [ok, f, m] = check(c, values, files, depth + 1);
      if (!ok) return c.error ? [false, f, m] : [false, r.field ?? '', r.error ?? ''];
    }
    return [true, '', ''];
  }
  if (r.rule === 'any') {
    const children = r.rules ?? [];
    if (depth >= MAX_DEPTH || children.length === 0) return [true, '', ''];
    for (const c of children) {
      if (check(c, values, files, depth + 1)[0]) return [true, '', ''];
    }
    return [false, r.field ?? '', r.error ?? ''];
  }
  const ok = checkLeaf(r, nonBlank(lookup(values, r.field ?? '')), lookupFiles(files, r.field ?? ''));
  return [ok, r.field ?? '', r.error ?? ''];
}

function lookup<T>(map: Record<string, T[]>, name: string): T[] | undefined {
  for (const k of [name, name + '[]', reported(name)]) {
    if (Object.prototype.hasOwnProperty.call(map, k)) return map[k];
  }
  return undefined;
}

function lookupFiles(files: Files, name: string): FileInfo[] {
  return (lookup(files, name) ?? []).filter((f) => f.name !== '' || f.size > 0);
}

/** Values trimmed, blank ones dropped (CF7 strips posted values). */
function nonBlank(vals: string[] | undefined): string[] {
  return (vals ?? []).map((v) => v.trim()).filter((v) => v !== '');
}

/** Characters as the browser counts them (UTF-16 code units), CRLF as one newline. */
export function codeUnits(vals: string[]): number {
  return vals.reduce((n, v) => n + v.replaceAll('\r\n', '\n').length, 0);
}

function totalSize(fs: FileInfo[]): number {
  return fs.reduce((n, f) => n + (f.size > 0 ? f.size : 0), 0);
}

const INT = /^\s*[-+]?[0-9]+\s*$/;

/** The rules that every value must pass on its own, by the rule's name. */
const FORMATS = new Map<string, (v: string) => boolean>([
  ['email', isEmail],
  ['url', isURL],
  ['tel', isTel],
  ['number', isNumber],
  ['date', isDate],
  ['time', isTime],
]);

function checkLeaf(r: SWVRule, vals: string[], fs: FileInfo[]): boolean {
  const every = (pred: (v: string) => boolean) => vals.every(pred);
  const format = FORMATS.get(r.rule);
  if (format) return every(format);
  switch (r.rule) {
    case 'required':
      return vals.length > 0;
    case 'requiredfile':
      return fs.length > 0;
    case 'enum':
      return every((v) => (r.accept ?? []).includes(v));
    case 'dayofweek':
      return every((v) => {
        const d = weekday(v);
        return d === 0 || (r.accept ?? []).includes(String(d));
      });
    case 'file': {
      const allowed = acceptExtensions(r.accept ?? []);
      return fs.every((f) => fileAllowed(f, allowed));
    }
    case 'minitems':
    case 'maxitems':
    case 'minlength':
    case 'maxlength':
    case 'minfilesize':
    case 'maxfilesize': {
      if (!INT.test(r.threshold ?? '')) return true;
      const t = Number((r.threshold ?? '').trim());
      switch (r.rule) {
        case 'minitems':
          return vals.length >= t;
        case 'maxitems':
          return vals.length <= t;
        case 'minlength':
          return vals.length === 0 || codeUnits(vals) >= t;
        case 'maxlength':
          return codeUnits(vals) <= t;
        case 'minfilesize':
          return fs.length === 0 || totalSize(fs) >= t;
        default:
          return totalSize(fs) <= t;
      }
    }
    case 'minnumber':
    case 'maxnumber': {
      if (!isNumber(r.threshold ?? '')) return true;
      const t = Number(r.threshold);
      return every((v) => !isNumber(v) || (r.rule === 'minnumber' ? Number(v) >= t : Number(v) <= t));
    }
    case 'mindate':
    case 'maxdate': {
      const t = r.threshold ?? '';
      if (!isDate(t)) return true;
      return every((v) => !isDate(v) || (r.rule === 'mindate' ? dateCompare(v, t) >= 0 : dateCompare(v, t) <= 0));
    }
    case 'stepnumber': {
      let base = 0;
      if (r.base) {
        if (!isNumber(r.base)) return true;
        base = Number(r.base);
      }
      if (!isNumber(r.interval ?? '')) return true;
      const interval = Number(r.interval);
      if (!(interval > 0) || !Number.isFinite(interval)) return true;
      return every((v) => !isNumber(v) || onStep(Number(v), base, interval));
    }
  }
  // An unknown rule passes, as CF7 ignores rules it has no class for.
  return true;
}

// --- formats ---

const LOCAL_PART = /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const DOMAIN_LABEL = /^[a-zA-Z0-9-]+$/;

/** WordPress's is_email, as the server checks it. */
export function isEmail(s: string): boolean {
  if (s.length < 6 || s.split('@').length !== 2) return false;
  const at = s.indexOf('@');
  if (at < 1) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!LOCAL_PART.test(local)) return false;
  if (domain.includes('..') || domain.replace(/^[ \t\n\r\0\x0B.]+|[ \t\n\r\0\x0B.]+$/g, '') !== domain) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => l !== '' && !/^[-\s\0\x0B]|[-\s\0\x0B]$/.test(l) && DOMAIN_LABEL.test(l));
}

const ALLOWED_SCHEMES = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
  'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];
const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9.+-]*:/;

/** What CF7's front end does to a url field's input: no scheme but a dot gets "http://". */
export function normalizeURL(s: string): string {
  if (!SCHEME_PREFIX.test(s) && s.includes('.')) return 'http://' + s.replace(/^\/+/, '');
  return s;
}

const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%\u0080-\uFFFF]*$/;
const USERINFO_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/;

/**
 * An absolute URL with a scheme WordPress allows and something after it,
 * parsed the way the server's URL parser splits it (scheme, opaque part or
 * authority and path), so both ends refuse the same inputs.
 */
export function isURL(input: string): boolean {
  const s = normalizeURL(input);
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(s)) return false;
  if (/%(?![0-9A-Fa-f]{2})/.test(s)) return false;
  const m = /^([A-Za-z][A-Za-z0-9.+-]*):(.*)$/s.exec(s);
  if (!m) return false;
  const scheme = m[1].toLowerCase();
  if (!ALLOWED_SCHEMES.includes(scheme)) return false;
  let rest = m[2];
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return rest !== ''; // an opaque URL (mailto:a@b.c)
  let host = '';
  let path = rest;
  if (rest.startsWith('//')) {
    const auth = rest.slice(2);
    const slash = auth.indexOf('/');
    const authority = slash >= 0 ? auth.slice(0, slash) : auth;
    path = slash >= 0 ? auth.slice(slash) : '';
    const at = authority.lastIndexOf('@');
    if (at >= 0 && !USERINFO_CHARS.test(authority.slice(0, at))) return false;
    host = at >= 0 ? authority.slice(at + 1) : authority;
    if (!validHost(host)) return false;
  }
  if (['http', 'https', 'ftp', 'ftps'].includes(scheme)) return host !== '' && hostname(host) !== '';
  return host !== '' || path !== '';
}

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return false;
    const port = host.slice(end + 1);
    return port === '' || /^:[0-9]*$/.test(port);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return false;
  return HOST_CHARS.test(host);
}

function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

/** CF7's telephone check: 6 to 15 characters after cleanup, a leading "+" counted. */
export function isTel(input: string): boolean {
  let s = input;
  const ext = s.search(/[#*]/);
  if (ext >= 0) s = s.slice(0, ext);
  s = s.replace(/[()/.*#\t\n\f\r -]+/g, '');
  if (s.startsWith('+') || s.startsWith('00')) s = '+' + s.replace(/^[+0]+/, '');
  return /^\+?[0-9]+$/.test(s) && s.length > 5 && s.length < 16;
}

const NUMBER = /^-?(?:[0-9]+|[0-9]*\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** The HTML floating-point syntax: optional "-", digits with an optional fraction, optional exponent. */
export function isNumber(s: string): boolean {
  return NUMBER.test(s);
}

function onStep(v: number, base: number, interval: number): boolean {
  if (!Number.isFinite(v) || !Number.isFinite(base)) return false;
  const rem = Math.abs((v - base) % interval);
  const eps = 1e-9 * Math.max(1, interval);
  return rem < eps || Math.abs(rem - interval) < eps;
}

const DATE = /^([0-9]{4,})-([0-9]{2})-([0-9]{2})$/;

/**
 * The ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD date, 0 when it
 * is not one. The calendar repeats every 400 years, so the year's last four
 * digits decide leap years and weekdays for any year length.
 */
export function weekday(s: string): number {
  const m = DATE.exec(s);
  if (!m) return 0;
  const y4 = Number(m[1].slice(-4));
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return 0;
  const y = 2000 + (y4 % 400);
  const t = new Date(Date.UTC(y, month - 1, day, 12));
  if (t.getUTCDate() !== day || t.getUTCMonth() !== month - 1) return 0;
  const wd = t.getUTCDay();
  return wd === 0 ? 7 : wd;
}

export function isDate(s: string): boolean {
  return weekday(s) !== 0;
}

/** Orders two valid dates: a longer year is later, then the strings compare. */
function dateCompare(a: string, b: string): number {
  const ya = a.indexOf('-');
  const yb = b.indexOf('-');
  if (ya !== yb) return ya < yb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const TIME = /^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$/;

export function isTime(s: string): boolean {
  return TIME.test(s);
}

// --- files ---

/** The extensions the shop verifies by content: their MIME type and the types found in such files. */
const FILE_TYPES: Record<string, { mime: string; sniffed: string[] }> = {
  pdf: { mime: 'application/pdf', sniffed: ['application/pdf'] },
  jpg: { mime: 'image/jpeg', sniffed: ['image/jpeg'] },
  jpeg: { mime: 'image/jpeg', sniffed: ['image/jpeg'] },
  png: { mime: 'image/png', sniffed: ['image/png'] },
  gif: { mime: 'image/gif', sniffed: ['image/gif'] },
  webp: { mime: 'image/webp', sniffed: ['image/webp'] },
  txt: { mime: 'text/plain', sniffed: ['text/plain'] },
  csv: { mime: 'text/csv', sniffed: ['text/plain'] },
  zip: { mime: 'application/zip', sniffed: ['application/zip'] },
};

/** The extensions an accept list (".ext", "type/subtype", "type/*") allows. */
export function acceptExtensions(accept: string[]): Set<string> {
  const out = new Set<string>();
  for (const raw of accept) {
    const a = raw.trim().toLowerCase();
    if (a.startsWith('.')) {
      if (FILE_TYPES[a.slice(1)]) out.add(a.slice(1));
      continue;
    }
    for (const [ext, ft] of Object.entries(FILE_TYPES)) {
      if (a === ft.mime || (a.endsWith('/*') && ft.mime.startsWith(a.slice(0, -1)))) out.add(ext);
    }
  }
  return out;
}

function fileAllowed(f: FileInfo, allowed: Set<string>): boolean {
  const dot = f.name.lastIndexOf('.');
  const slash = Math.max(f.name.lastIndexOf('/'), f.name.lastIndexOf('\\'));
  const ext = dot > slash ? f.name.slice(dot + 1).toLowerCase() : '';
  if (!allowed.has(ext)) return false;
  const t = f.type.split(';')[0].trim().toLowerCase();
  return t === '' || t === FILE_TYPES[ext].mime || FILE_TYPES[ext].sniffed.includes(t);
}

/**
 * The values and files of a form's fields as the validator reads them. Only
 * controls inside field wrappers count (not the hidden _wpcf7 fields).
 */
export function collect(form: HTMLFormElement): { values: Values; files: Files } {
  const values: Values = {};
  const files: Files = {};
  const controls = form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
    '.wpcf7-form-control-wrap input, .wpcf7-form-control-wrap textarea, .wpcf7-form-control-wrap select',
  );
  for (const el of controls) {
    if (el.disabled || !el.name) continue;
    if (el instanceof HTMLInputElement && el.type === 'file') {
      const list = (files[el.name] ??= []);
      for (const f of Array.from(el.files ?? [])) list.push({ name: f.name, size: f.size, type: f.type });
      continue;
    }
    const list = (values[el.name] ??= []);
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.checked) list.push(el.value);
    } else if (el instanceof HTMLSelectElement) {
      for (const o of Array.from(el.selectedOptions)) list.push(o.value);
    } else {
      list.push(el.value);
    }
  }
  return { values, files };
}
