import { SearchForm } from '../ui/SearchForm';
import { PageContainer } from '../ui/PageContainer';

export function NotFoundPage() {
  return (
    <PageContainer narrow className="notfound">
      <h1>Page not found</h1>
      <p>Sorry, we couldn’t find the page you were looking for. It may have moved, or the link may be out of date.</p>
      <p>
        <a className="button button-primary" href="/shop/">
          Continue shopping
        </a>
      </p>
      <h2 className="notfound-search-title">Search the shop</h2>
      <SearchForm className="notfound-search" idBase="notfound-search" label="Search the shop" />
    </PageContainer>
  );
}
