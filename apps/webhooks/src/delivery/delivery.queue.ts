/** The work queue of webhook deliveries: one job per delivery, payload `{delivery_id}`. */
export const DELIVER_QUEUE = 'webhooks.deliver';

export interface DeliverPayload {
  delivery_id: string;
}
