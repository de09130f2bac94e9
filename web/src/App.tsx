import type { PageData } from './types';
import { Layout } from './layout/Layout';
import { HomePage } from './home/HomePage';
import { ListingPage } from './listing/ListingPage';
import { ProductPage } from './product/ProductPage';
import { NotFoundPage } from './notfound/NotFoundPage';

function Page({ data }: { data: PageData }) {
  switch (data.page) {
    case 'home':
      return <HomePage data={data} />;
    case 'listing':
      return <ListingPage data={data} />;
    case 'product':
      return <ProductPage data={data} />;
    default:
      return <NotFoundPage />;
  }
}

export function App({ data }: { data: PageData }) {
  return (
    <Layout data={data}>
      <Page data={data} />
    </Layout>
  );
}
