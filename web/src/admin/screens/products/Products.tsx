// The Products screen: the list at /wp-admin/products/, the editor at
// /wp-admin/products/<id>/ (where the storefront's edit links lead) and
// /wp-admin/products/new/.

import type { ScreenProps } from '../../screens';
import { ProductEditor } from './ProductEditor';
import { ProductList } from './ProductList';

export default function Products({ data, params, location }: ScreenProps) {
  const [first] = params;
  if (first === 'new') return <ProductEditor key="new" id={null} currency={data.site.currency} />;
  if (first && /^\d+$/.test(first)) return <ProductEditor key={first} id={Number(first)} currency={data.site.currency} />;
  if (first) {
    return (
      <div role="alert" className="admin-notice admin-notice--error">
        <p>There is no product at this address.</p>
      </div>
    );
  }
  return <ProductList currency={data.site.currency} location={location} />;
}
