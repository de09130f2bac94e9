import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ContactField, ContactFormData } from '../types';
import { obtainProof } from '../account/login/botcheck';
import { postFeedback, refill } from './api';
import { initialState, reducer, type FormState } from './state';
import { collect, codeUnits, normalizeURL, reported, validate } from './swv';

/** Screen-reader text while a message is on its way. */
export const SENDING = 'Sending your message…';
/** Under a submit button held back by an unticked required box. */
export const ACCEPT_HINT = 'Tick the box above to send your message.';

const TEXT_KINDS = new Set(['text', 'email', 'url', 'tel', 'textarea']);

/** The autocomplete token of the shop's usual fields. */
function autoComplete(f: ContactField): string | undefined {
  if (f.name === 'your-name') return 'name';
  if (f.kind === 'email') return 'email';
  if (f.kind === 'tel') return 'tel';
  if (f.kind === 'url') return 'url';
  return undefined;
}

/** CF7's classes of a control: its type, and what it validates as. */
function controlClass(f: ContactField, invalid: boolean): string {
  const c = ['wpcf7-form-control', `wpcf7-${f.kind}`];
  if (f.required && f.kind !== 'acceptance') c.push('wpcf7-validates-as-required');
  if (['email', 'url', 'tel', 'number', 'date', 'time'].includes(f.kind)) c.push(`wpcf7-validates-as-${f.kind}`);
  if (f.kind === 'checkbox' && f.exclusive) c.push('wpcf7-exclusive-checkbox');
  if (invalid) c.push('wpcf7-not-valid');
  return c.join(' ');
}

/** A counter shows for text areas with a length bound (CF7's [count] tag). */
function hasCounter(f: ContactField): boolean {
  return f.kind === 'textarea' && !!(f.maxlength || f.minlength);
}

function requiredAcceptances(fields: ContactField[]): string[] {
  return fields.filter((f) => f.kind === 'acceptance' && f.required).map((f) => f.name);
}

/** The state a page starts in: the answer to a form posted without scripts, if any. */
function startState(form: ContactFormData): FormState {
  if (!form.answer) return initialState;
  return reducer(initialState, { type: 'answer', answer: { contact_form_id: form.id, ...form.answer } });
}

/** The acceptance boxes ticked in the values a posted form brought back. */
function tickedFrom(form: ContactFormData): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const f of form.fields) if (f.kind === 'acceptance' && (form.values?.[f.name] ?? []).some((v) => v !== '')) out[f.name] = true;
  return out;
}

/**
 * One Contact Form 7 form: CF7's markup and hidden fields, client-side SWV
 * validation on change and on submit, the invisible bot-check, the
 * multipart POST to the feedback route and the state machine of state.ts.
 * Controls are uncontrolled (the form's own reset clears them, and the
 * server render is the form a visitor without scripts sees).
 */
/**
 * An acceptance box's label, its words "privacy policy" linked to the
 * published policy (privacyUrl; none published: the plain label).
 */
function acceptanceLabel(label: string, privacyUrl?: string): ReactNode {
  const i = privacyUrl ? label.toLowerCase().indexOf('privacy policy') : -1;
  if (i < 0) return label;
  const words = label.slice(i, i + 'privacy policy'.length);
  return (
    <>
      {label.slice(0, i)}
      <a href={privacyUrl} target="_blank" rel="noopener">
        {words}
        <span className="screen-reader-text"> (opens in a new tab)</span>
      </a>
      {label.slice(i + words.length)}
    </>
  );
}

export function ContactForm({ form, privacyUrl }: { form: ContactFormData; privacyUrl?: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  // _wpcf7_posted_data_hash: what the last answer gave, sent back with the next submit.
  const [hash, setHash] = useState(form.answer?.posted_data_hash ?? '');
  const afterSend = useRef(false);
  const [state, dispatch] = useReducer(reducer, form, startState);
  const [js, setJs] = useState(false);
  const [ticked, setTicked] = useState<Record<string, boolean>>(() => tickedFrom(form));
  const [lengths, setLengths] = useState<Record<string, number>>({});
  const unit = form.unit_tag;
  const busy = state.status === 'submitting';
  const missing = requiredAcceptances(form.fields).filter((n) => !ticked[n]);

  useEffect(() => setJs(true), []);

  // Validate the field that changed (the browser's change event: after an
  // edit, when the control loses focus or a box is ticked).
  const validateField = useCallback(
    (name: string) => {
      const el = formRef.current;
      if (!el) return;
      dispatch({ type: 'validating' });
      void Promise.resolve().then(() => {
        const { values, files } = collect(el);
        const field = reported(name);
        dispatch({ type: 'validated', fields: [field], invalid: validate(form.schema, values, files, new Set([field])) });
      });
    },
    [form.schema],
  );

  useEffect(() => {
    const el = formRef.current;
    if (!el) return;
    // The browser's change event, not React's onChange: after the form's
    // own reset React's idea of a box's state is stale and it would drop
    // the next click's change.
    const onChange = (e: Event) => {
      const target = e.target as HTMLInputElement;
      const wrap = target.closest<HTMLElement>('.wpcf7-form-control-wrap[data-name]');
      if (!wrap) return;
      if (target.type === 'checkbox') {
        const group = target.closest('.wpcf7-exclusive-checkbox');
        if (group && target.checked) {
          group.querySelectorAll<HTMLInputElement>('input[type=checkbox]').forEach((box) => {
            if (box !== target) box.checked = false;
          });
        }
        if (target.closest('.wpcf7-acceptance')) setTicked((t) => ({ ...t, [target.name]: target.checked }));
      }
      if (target.type === 'url' && target.value) target.value = normalizeURL(target.value.trim());
      validateField(wrap.dataset.name ?? '');
    };
    el.addEventListener('change', onChange);
    return () => el.removeEventListener('change', onChange);
  }, [validateField]);

  // Focus the first invalid control after a refused submit, in the commit
  // that shows the tips (not a frame later).
  useLayoutEffect(() => {
    if (state.focus === 0) return;
    const el = formRef.current;
    if (!el) return;
    for (const wrap of el.querySelectorAll<HTMLElement>('.wpcf7-form-control-wrap[data-name]')) {
      if (reported(wrap.dataset.name ?? '') in state.tips) {
        wrap.querySelector<HTMLElement>('input, textarea, select')?.focus();
        return;
      }
    }
  }, [state.focus]); // eslint-disable-line react-hooks/exhaustive-deps

  const onInput = (e: FormEvent<HTMLFormElement>) => {
    const t = e.target as HTMLTextAreaElement;
    if (t.tagName === 'TEXTAREA' && t.name) setLengths((l) => ({ ...l, [t.name]: codeUnits([t.value]) }));
  };

  const onReset = async () => {
    const sent = afterSend.current;
    afterSend.current = false;
    setTicked({});
    setLengths({});
    dispatch({ type: 'resetting', afterSend: sent });
    await refill(form.refill_url);
    dispatch({ type: 'reset' });
  };

  // Heard on the wrapper, as the submit bubbles up from the form: every
  // listener on the form itself has run by then, whenever it was added.
  const onSubmit = async (e: FormEvent<HTMLDivElement>) => {
    const el = e.target as HTMLFormElement;
    if (el !== formRef.current) return;
    // Another script took the submit first (Contact Form 7's own, whose
    // listener is on the form): it sends the message.
    if (e.defaultPrevented) return;
    e.preventDefault();
    if (busy || missing.length > 0) return;
    const { values, files } = collect(el);
    const invalid = validate(form.schema, values, files);
    if (invalid.length > 0) {
      dispatch({ type: 'refused', invalid, message: form.messages.validation_error ?? '' });
      return;
    }
    dispatch({ type: 'submitting' });
    // A fresh proof for every submit: the server accepts each one once.
    // Without one the server answers spam; the send still goes so a
    // network failure is reported as such.
    let token = '';
    try {
      token = await obtainProof(form.botcheck_url, hostRef.current ?? document.body);
    } catch {
      token = '';
    }
    // The payload goes in _wpcf7_recaptcha_response of this submit only:
    // the rendered field stays empty.
    const body = new FormData(el);
    body.set('_wpcf7_recaptcha_response', token);
    const res = await postFeedback(form.feedback_url, body);
    if (!res.ok) {
      dispatch({ type: 'error', message: res.message });
      return;
    }
    setHash(res.answer.posted_data_hash ?? '');
    dispatch({ type: 'answer', answer: res.answer });
    if (res.answer.status === 'mail_sent') {
      afterSend.current = true;
      el.reset(); // → onReset: resetting, the refill call, back to sent
    }
  };

  const field = (f: ContactField): ReactNode => {
    const name = reported(f.name);
    const id = `${unit}-${name}`;
    const tip = state.tips[name];
    const tipId = `${unit}-ve-${name}`;
    const countId = `${unit}-count-${name}`;
    const describedBy = [tip ? tipId : '', hasCounter(f) ? countId : ''].filter(Boolean).join(' ') || undefined;
    const common = {
      name: f.name,
      className: controlClass(f, !!tip),
      'aria-invalid': tip ? ('true' as const) : ('false' as const),
      'aria-describedby': describedBy,
    };
    const req = f.required ? { 'aria-required': 'true' as const } : {};
    // Values a form posted without scripts brought back (none after sending).
    const posted = form.values?.[f.name] ?? [];
    const value = posted[0] ?? '';
    let control: ReactNode;
    let labelled = true; // a <label for> names the control; groups are named by aria-labelledby
    switch (f.kind) {
      case 'textarea':
        control = (
          <textarea
            id={id}
            cols={40}
            rows={10}
            maxLength={f.maxlength || undefined}
            minLength={f.minlength || undefined}
            defaultValue={value || undefined}
            {...common}
            {...req}
          />
        );
        break;
      case 'select':
        control = (
          <select id={id} multiple={f.multiple || undefined} defaultValue={f.multiple ? posted : value || undefined} {...common} {...req}>
            {!f.multiple && <option value="">—Please choose an option—</option>}
            {(f.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        );
        break;
      case 'checkbox':
        labelled = false;
        control = (
          <span className={common.className} role="group" aria-labelledby={`${id}-label`} aria-invalid={common['aria-invalid']} aria-describedby={describedBy}>
            {(f.options ?? []).map((o, i) => (
              <span key={o} className={`wpcf7-list-item${i === 0 ? ' first' : ''}${i === (f.options ?? []).length - 1 ? ' last' : ''}`}>
                <label>
                  <input type="checkbox" name={`${f.name}[]`} value={o} defaultChecked={posted.includes(o) || undefined} />
                  <span className="wpcf7-list-item-label">{o}</span>
                </label>
              </span>
            ))}
          </span>
        );
        break;
      case 'acceptance':
        labelled = false;
        control = (
          <span className={common.className.replace('wpcf7-not-valid', '').trim()}>
            <span className="wpcf7-list-item">
              <label>
                <input
                  type="checkbox"
                  id={id}
                  name={f.name}
                  value="1"
                  defaultChecked={value !== '' || undefined}
                  aria-invalid={common['aria-invalid']}
                  aria-describedby={describedBy}
                  {...req}
                />
                <span className="wpcf7-list-item-label">{acceptanceLabel(f.label, privacyUrl)}</span>
              </label>
            </span>
          </span>
        );
        break;
      case 'file':
        control = <input type="file" id={id} accept={(f.accept ?? []).join(',')} {...common} {...req} />;
        break;
      default:
        control = (
          <input
            type={f.kind}
            id={id}
            size={40}
            maxLength={TEXT_KINDS.has(f.kind) ? f.maxlength || undefined : undefined}
            minLength={TEXT_KINDS.has(f.kind) ? f.minlength || undefined : undefined}
            min={f.min || undefined}
            max={f.max || undefined}
            step={f.step || undefined}
            autoComplete={autoComplete(f)}
            defaultValue={value || undefined}
            {...common}
            {...req}
          />
        );
    }
    const mark = f.required ? (
      <span className="required" aria-hidden="true">
        {' '}*
      </span>
    ) : null;
    return (
      <p key={f.name} className={`wpcf7-field wpcf7-field--${f.kind}`}>
        {f.kind === 'checkbox' && (
          <span className="wpcf7-field-label" id={`${id}-label`}>
            {f.label}
            {mark}
          </span>
        )}
        {labelled && (
          <label htmlFor={id} className="wpcf7-field-label">
            {f.label}
            {mark}
          </label>
        )}
        <span className="wpcf7-form-control-wrap" data-name={f.name}>
          {control}
          {tip && (
            <span className="wpcf7-not-valid-tip" id={tipId}>
              {tip}
            </span>
          )}
        </span>
        {hasCounter(f) && <Counter id={countId} field={f} length={lengths[f.name] ?? 0} />}
      </p>
    );
  };

  const disabled = busy || missing.length > 0;
  const hintId = `${unit}-submit-hint`;
  return (
    <div className={`wpcf7 ${js ? 'js' : 'no-js'}`} id={unit} lang={form.locale.replace('_', '-')} dir="ltr" data-wpcf7-id={form.id} onSubmit={onSubmit}>
      {/* CF7's screen-reader response, its wrapper's first child (CF7's
          script writes into it and throws without it). The one live
          region: the sending note, then the answer; the list names each
          field's error. The visible response output below is hidden from
          screen readers, as CF7's, so nothing is announced twice. */}
      <div className="screen-reader-response">
        <p role="status" aria-live="polite" aria-atomic="true">
          {busy ? SENDING : state.message}
        </p>
        <ul>
          {Object.entries(state.tips).map(([name, tip]) => (
            <li key={name}>{tip}</li>
          ))}
        </ul>
      </div>
      <form
        ref={formRef}
        action={form.action}
        method="post"
        className={`wpcf7-form ${state.status}`}
        aria-label="Contact form"
        encType="multipart/form-data"
        noValidate
        data-status={state.status}
        aria-busy={busy || undefined}
        onInput={onInput}
        onReset={() => void onReset()}
      >
        <fieldset className="hidden-fields-container">
          {form.hidden.map((h) => (
            <input key={h.name} type="hidden" name={h.name} value={h.name === '_wpcf7_posted_data_hash' ? hash || h.value : h.value} />
          ))}
        </fieldset>
        <p className="wpcf7-required-note">
          Fields marked <span aria-hidden="true">*</span>
          <span className="screen-reader-text">with an asterisk</span> are required.
        </p>
        {form.fields.map(field)}
        <p className="wpcf7-submit-row">
          <button
            type="submit"
            className="wpcf7-form-control wpcf7-submit has-spinner button"
            disabled={disabled}
            aria-describedby={missing.length > 0 ? hintId : undefined}
          >
            Submit
          </button>
        </p>
        {missing.length > 0 && (
          <p className="wpcf7-submit-hint" id={hintId}>
            {ACCEPT_HINT}
          </p>
        )}
        {/* No span.wpcf7-spinner in the markup: CF7's script inserts one after
            .has-spinner, and without it the row draws its own (contact.css). */}
        <div className="wpcf7-response-output" aria-hidden="true">
          {state.message}
        </div>
      </form>
      <div ref={hostRef} hidden />
    </div>
  );
}

/**
 * CF7's character count: counts down from the maximum (or up when only a
 * minimum is set), in UTF-16 code units as the validator counts, flagging
 * too long and too short.
 */
function Counter({ id, field, length }: { id: string; field: ContactField; length: number }) {
  const max = field.maxlength ?? 0;
  const min = field.minlength ?? 0;
  const down = max > 0;
  const shown = down ? max - length : length;
  const cls = ['wpcf7-character-count', down ? 'down' : 'up'];
  if (max > 0 && length > max) cls.push('too-long');
  if (min > 0 && length < min) cls.push('too-short');
  const words = down ? (shown === 1 || shown === -1 ? 'character left' : 'characters left') : `characters (at least ${min})`;
  return (
    <span className="wpcf7-character-count-line" id={id}>
      <span
        className={cls.join(' ')}
        data-target-name={field.name}
        data-starting-value={down ? max : 0}
        data-current-value={shown}
        data-maximum-value={max || ''}
        data-minimum-value={min || ''}
      >
        {shown}
      </span>{' '}
      {words}
    </span>
  );
}
