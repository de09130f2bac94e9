// The Orders screen: /wp-admin/orders/ lists them, /wp-admin/orders/<id>/
// shows one.

import type { ScreenProps } from '../../screens';
import { OrderDetail } from './OrderDetail';
import { OrderList } from './OrderList';
import './orders.css';

export default function Orders({ params, location }: ScreenProps) {
  const id = params[0] && /^\d+$/.test(params[0]) ? Number(params[0]) : 0;
  if (params.length > 0) {
    if (!id) {
      return (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>There is no order at this address.</p>
        </div>
      );
    }
    return <OrderDetail key={id} id={id} />;
  }
  return <OrderList location={location} />;
}
