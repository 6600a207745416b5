import type { PushLocale } from './dtos/push-subscription.dto';

export interface PushSubscriptionRow {
  id: string;
  worker_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  locale: PushLocale;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
