import { isoTime } from '../clock';
import type { Tenant } from '../tenancy';
import type { DeliveryAttempt, DeliveryMessage } from './delivery';
import { dispatchDelivery, type DispatchDeps, requeueRecordedRetry } from './dispatch';

/** What the attempt record of a delivery given up on says, in the delivery log. */
export const notAttemptedMessage =
  'not attempted: the service failed to process this delivery 5 times in a row and gave up on it; redeliver or recover it to send it again';

/** What became of a dead-lettered message's delivery. */
export type DeadLetterOutcome =
  /** Its attempt was never made: the delivery ended `failed`, the attempt recorded as `not_attempted`. */
  | 'abandoned'
  /** Not due yet, or its attempt's result recorded: the message (or the retry after it) queued again at its time. */
  | 'requeued'
  /** Its attempt was claimed and has no result: settled as the dispatcher settles an interrupted attempt. */
  | 'settled'
  /** The delivery had moved on (ended, restarted, a later attempt claimed) or is gone: nothing to do. */
  | 'stale';

/**
 * A message of the delivery queue's dead-letter queue: the dispatcher failed on it 5 receives in a
 * row (a crash, a throttled table, a bug), so no message is left to make its attempt. Without this
 * the delivery would stay `pending` for ever, refused by redeliver and passed over by recover.
 *
 * - Its attempt never claimed (`attempt_count` is one less): the delivery ends `failed` with that
 *   attempt recorded as `not_attempted`, claimed in the same write, so it can never be made later,
 *   and redeliver and recover send it again. Its webhook is left as it is: the receiver did nothing
 *   wrong, so this neither fails the webhook nor e-mails its owner (the operators' alarm tells).
 * - Its attempt claimed: the attempt went out (or was cut short), and its retries belong to the
 *   schedule: a recorded result whose retry message may have been lost with this message's
 *   failures gets that retry queued again at its time (the claim keeps a second copy from repeating
 *   it); an unrecorded one is settled as the dispatcher settles an attempt whose claimer died.
 * - Not due yet (what failed was sending it on until its time): sent on.
 */
export const settleDeadLetter = async (message: DeliveryMessage, deps: DispatchDeps): Promise<DeadLetterOutcome> => {
  const tenant: Tenant = { accountId: message.account_id, mode: message.mode };
  const delivery = await deps.deliveries.get(tenant, message.webhook_id, message.delivery_id);
  if (!delivery || delivery.status !== 'pending' || delivery.sequence !== message.sequence) return 'stale';
  const nowMs = deps.clock.now();
  if (nowMs < message.not_before) {
    // What failed was sending it on until its time (the queue delays 15 minutes at most): send it on.
    await deps.queue.send(message);
    return 'requeued';
  }
  if (delivery.attempt_count === message.attempt - 1) {
    const notMade: DeliveryAttempt = {
      sequence: message.sequence,
      number: message.attempt,
      attempted_at: isoTime(nowMs),
      url: null,
      status_code: null,
      duration_ms: 0,
      error: 'not_attempted',
      error_message: notAttemptedMessage,
      response_excerpt: '',
    };
    const ended = await deps.deliveries.abandon(tenant, message.webhook_id, delivery.id, notMade, isoTime(nowMs));
    return ended ? 'abandoned' : 'stale';
  }
  if (delivery.attempt_count !== message.attempt) return 'stale';
  const recorded = delivery.attempts.some((attempt) => attempt.sequence === message.sequence && attempt.number === message.attempt);
  if (!recorded) {
    // Not claimable again: the dispatcher settles it once its lease is over, or sends it on until then.
    await dispatchDelivery(message, deps);
    return 'settled';
  }
  return (await requeueRecordedRetry(message, delivery, deps)) ? 'requeued' : 'stale';
};
