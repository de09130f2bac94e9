import type { ContentPageData } from '../types';
import { Breadcrumbs } from '../ui/Breadcrumbs';
import { RichText } from '../ui/RichText';
import { EditLinks } from '../frame/EditLinks';
import './content.css';
import { PageContainer } from '../ui/PageContainer';

/**
 * A content page (/<slug>/: about, shipping, returns, terms): the shop's own
 * text, the same for everyone (cached). Its videos are lazy (RichText).
 */
export function ContentPage({ data }: { data: ContentPageData }) {
  const c = data.content;
  return (
    <PageContainer className={`page-content page-content--${c.slug}`}>
      <Breadcrumbs items={data.breadcrumbs} />
      <article className="content-page">
        <h1 className="page-title">{c.title}</h1>
        <EditLinks links={data.edit_links} block="page" />
        <RichText html={c.html} className="content-page__body entry-content" video={data.settings?.video} />
        {c.modified && <p className="content-page__updated">Last updated {c.modified}</p>}
      </article>
    </PageContainer>
  );
}
