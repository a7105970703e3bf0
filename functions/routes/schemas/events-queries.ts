import * as v from 'valibot';
import { eventTypes } from '../../core/events/event-types';
import { followSettleMs } from '../../core/events/list-events';
import { idPattern } from '../../core/ids';
import { listQuery, picklistParam } from './common';

export const listEventsQuery = /* @__PURE__ */ (() =>
  listQuery(['created_at'] as const, {
    type: v.optional(picklistParam(eventTypes, 'Only events of this type.')),
    starting_after: v.optional(
      v.pipe(
        v.string(),
        v.regex(idPattern('event'), 'must be an event id (evt_ followed by 26 characters)'),
        v.description(
          'Only events after this one (an event of this account and mode), oldest first: store the last id you read and ' +
            `pass it again to follow the event stream with no gaps and no duplicates. An event is listed this way once it is ` +
            `${followSettleMs / 1000} s old, when every event created before it has been stored. Takes order=asc only (its default).`,
        ),
      ),
    ),
  }))();
