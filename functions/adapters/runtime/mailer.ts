import { SESv2Client } from '@aws-sdk/client-sesv2';
import { systemClock, type Clock } from '../../core/clock';
import type { Mailer } from '../../core/webhooks/delivery';
import { outboxMailer } from '../email/outbox-mailer';
import { sesMailer } from '../email/ses-mailer';

/** SES from NOTIFICATION_SENDER in AWS; the outbox folder in the local runtime. */
export const mailerFromEnvironment = (clock: Clock = systemClock): Mailer => {
  const outbox = process.env.LOCAL_OUTBOX_DIR;
  if (outbox) return outboxMailer(outbox, clock);
  const from = process.env.NOTIFICATION_SENDER;
  if (!from) throw new Error('NOTIFICATION_SENDER is not set');
  return sesMailer(new SESv2Client({}), from);
};
