// Product categories and tags. /wp-admin/categories/ lists the category
// tree beside a form to add one; /wp-admin/categories/<id>/ (where the
// storefront's term edit links lead) edits one, with delete behind a
// confirmation. Tags are listed below, added and deleted the same way.

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { adminCall } from '../../api';
import { BASE, Link, useRouter } from '../../router';
import type { ScreenProps } from '../../screens';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { Confirm } from '../../ui/Confirm';
import { PRODUCTS, categoryTree, type Category, type Tag } from './types';
import { AddByName } from './AddByName';
import './products.css';
import { ColumnHeads } from '../../../ui/ColumnHeads';

interface Form {
  name: string;
  slug: string;
  parent: string;
  description: string;
}

const EMPTY: Form = { name: '', slug: '', parent: '0', description: '' };

export default function Categories({ params }: ScreenProps) {
  const { navigate } = useRouter();
  const editing = params[0] && /^\d+$/.test(params[0]) ? Number(params[0]) : null;
  const [cats, setCats] = useState<Category[] | null>(null);
  const [tags, setTags] = useState<Tag[]>([]);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState<{ kind: 'category' | 'tag'; id: number; name: string } | null>(null);
  const { notices, push, dismiss } = useNotices();

  const load = useCallback(async () => {
    const [c, t] = await Promise.all([adminCall<Category[]>('GET', PRODUCTS + '/categories'), adminCall<Tag[]>('GET', PRODUCTS + '/tags')]);
    if (c.ok) setCats(c.data);
    else push('error', c.error.message);
    if (t.ok) setTags(t.data);
    return c.ok ? c.data : [];
  }, [push]);

  useEffect(() => {
    void load().then((list) => {
      const c = list.find((x) => x.id === editing);
      setForm(c ? { name: c.name, slug: c.slug, parent: String(c.parent), description: c.description } : EMPTY);
      setErrors({});
    });
  }, [editing, load]);

  const current = cats?.find((c) => c.id === editing) ?? null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const body = { name: form.name, slug: form.slug, parent: Number(form.parent), description: form.description };
    const r = editing ? await adminCall<Category>('PUT', `${PRODUCTS}/categories/${editing}`, body) : await adminCall<Category>('POST', PRODUCTS + '/categories', body);
    if (!r.ok) {
      const p = r.error.data?.params as Record<string, string> | undefined;
      if (p) {
        setErrors(p);
        setTimeout(() => document.querySelector<HTMLElement>('.pa-category-form [aria-invalid="true"]')?.focus());
      }
      push('error', p ? `Not saved: ${Object.values(p)[0]}` : r.error.message);
      return;
    }
    push('success', editing ? `Category “${r.data.name}” saved.` : `Category “${r.data.name}” added.`);
    if (!editing) setForm(EMPTY);
    await load();
  };

  const remove = async () => {
    if (!confirm) return;
    const { kind, id, name } = confirm;
    setConfirm(null);
    const r = await adminCall('DELETE', `${PRODUCTS}/${kind === 'category' ? 'categories' : 'tags'}/${id}?force=true`);
    if (!r.ok) return push('error', r.error.message);
    push('success', `${kind === 'category' ? 'Category' : 'Tag'} “${name}” deleted.`);
    if (kind === 'category' && editing === id) navigate(BASE + 'categories/');
    else await load();
  };

  const tree = categoryTree(cats ?? []);
  return (
    <div>
      <Notices notices={notices} dismiss={dismiss} />
      <section aria-labelledby="pa-cat-form-heading" className="admin-card">
        <h2 id="pa-cat-form-heading">{editing ? `Edit category “${current?.name ?? ''}”` : 'Add a category'}</h2>
        {editing && cats && !current ? (
          <p role="alert">There is no category {editing}.</p>
        ) : (
          <form className="pa-category-form" onSubmit={(e) => void save(e)} noValidate>
            <Field label="Name" required error={errors.name}>
              {(p) => <input {...p} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
            </Field>
            <Field label="Slug" hint="Left empty, it is made from the name." error={errors.slug}>
              {(p) => <input {...p} value={form.slug} onChange={(e) => setForm({ ...form, slug: e.target.value })} />}
            </Field>
            <Field label="Parent category" error={errors.parent}>
              {(p) => (
                <select {...p} value={form.parent} onChange={(e) => setForm({ ...form, parent: e.target.value })}>
                  <option value="0">None (top level)</option>
                  {tree
                    .filter(({ cat }) => cat.id !== editing)
                    .map(({ cat, depth }) => (
                      <option key={cat.id} value={cat.id}>
                        {'\u2014 '.repeat(depth) + cat.name}
                      </option>
                    ))}
                </select>
              )}
            </Field>
            <Field label="Description" error={errors.description}>
              {(p) => <textarea {...p} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />}
            </Field>
            <p className="pa-row">
              <button type="submit" className="admin-primary">
                {editing ? 'Save category' : 'Add category'}
              </button>
              {editing && current ? (
                <>
                  <button type="button" className="admin-danger" onClick={() => setConfirm({ kind: 'category', id: current.id, name: current.name })}>
                    Delete category
                  </button>
                  <Link to={BASE + 'categories/'}>Cancel</Link>
                </>
              ) : null}
            </p>
          </form>
        )}
      </section>

      <table className="admin-table">
        <caption>Categories</caption>
        <ColumnHeads columns={['Name', 'Slug', 'Products']} />
        <tbody aria-busy={cats === null || undefined}>
          {tree.map(({ cat, depth }) => (
            <tr key={cat.id}>
              <th scope="row" style={{ paddingLeft: 10 + depth * 20 }}>
                <Link to={`${BASE}categories/${cat.id}/`} aria-current={cat.id === editing ? 'page' : undefined}>
                  {cat.name}
                </Link>
              </th>
              <td>{cat.slug}</td>
              <td>{cat.count}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <section aria-labelledby="pa-tags-heading">
        <h2 id="pa-tags-heading">Tags</h2>
        <AddByName
          label="New tag"
          button="Add tag"
          post={(name) => adminCall<Tag>('POST', PRODUCTS + '/tags', { name })}
          added={async (name) => {
            push('success', `Tag “${name}” added.`);
            await load();
          }}
        />
        <ul className="pa-checks" aria-label="Tags">
          {tags.map((t) => (
            <li key={t.id}>
              {t.name} ({t.count}){' '}
              <button type="button" className="admin-danger" onClick={() => setConfirm({ kind: 'tag', id: t.id, name: t.name })}>
                Delete<span className="screen-reader-text"> tag {t.name}</span>
              </button>
            </li>
          ))}
        </ul>
        {tags.length === 0 ? <p>No tags yet.</p> : null}
      </section>

      {confirm ? (
        <Confirm title={`Delete the ${confirm.kind} “${confirm.name}”?`} confirmLabel={`Delete ${confirm.kind}`} danger onConfirm={() => void remove()} onCancel={() => setConfirm(null)}>
          <p>{confirm.kind === 'category' ? 'Its products stay, without this category; its subcategories move up a level.' : 'Its products stay, without this tag.'}</p>
        </Confirm>
      ) : null}
    </div>
  );
}
