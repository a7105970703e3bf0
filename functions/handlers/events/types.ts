import { eventCatalogue, eventTypes } from '../../core/events/event-types';
import { publicHandler } from '../../http/public-handler';
import { listEventTypesRoute } from '../../routes/events';

const catalogue = eventTypes.map((type) => ({ type, ...eventCatalogue[type] }));

export const handler = publicHandler(listEventTypesRoute, async () => ({ data: catalogue }));
