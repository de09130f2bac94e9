/** Catalogue HTML written by the shop owner (descriptions); trusted by design. */
export function Html({ html, className, as: Tag = 'div' }: { html: string; className?: string; as?: 'div' | 'section' }) {
  if (!html) return null;
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
