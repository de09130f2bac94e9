import type { EditLink } from '../types';

/**
 * A content block's edit links for staff (spec: "a visual builder link and a
 * backend editor link"). Each link names what it edits and where, so the
 * two stay distinct in a screen reader's list of links.
 */
export function EditLinks({ links, block }: { links?: EditLink[]; block: EditLink['block'] }) {
  const l = links?.find((x) => x.block === block);
  if (!l) return null;
  return (
    <p className="edit-links">
      <a className="edit-link edit-link--builder" href={l.builder_url} rel="nofollow">
        {`${l.label} in the visual builder`}
      </a>
      <a className="edit-link edit-link--editor" href={l.editor_url} rel="nofollow">
        {`${l.label} in the backend editor`}
      </a>
    </p>
  );
}
